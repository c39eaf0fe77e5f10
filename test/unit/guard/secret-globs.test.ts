import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SECRET_GLOBS } from "../../../src/guard/secret-globs.ts";
import { isSecretPath } from "../../../src/guard/secret-path.ts";
import { secretTest } from "../../../src/tools/search/secret-test.ts";
import { secretGlobArgs } from "../../../src/tools/search/ripgrep-search.ts";
import { walkFiles } from "../../../src/files/walk-files.ts";
import { tempProject } from "../../support/temp-project.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasRg = toolHere("rg", Bun.which("rg") !== null);

// Names on both sides of every rule, in mixed case: the globs must leave out exactly what isSecretPath names.
const SAMPLES = [
  ".env", ".ENV", "sub/.Env", ".env.local", ".Env.Production", ".env.", ".env.e", ".env.exampl", ".env.examples", ".env.example", "deep/.ENV.EXAMPLE",
  ".envrc", "env", "dotenv.ts", "server.pem", "a.PEM", ".pem", "x.key", "keys.json", "monkey", "cert.p12", "cert.pfx", "p12.txt",
  "id_rsa", "ID_RSA", "id_rsa.pub", "id_rsa.PUB", "id_rsa_backup", "id_rsapub", "id_rsa.pu", "id_rsab", "id_rsa.pubx", "id_ed25519", "id_ed25519.pub",
  "id_ecdsa-cert.pub", "id_ecdsa_sk", "id_dsa.old", "my_id_rsa", ".netrc", ".pgpass", "netrc", ".aws/credentials", "home/.AWS/Credentials", ".aws/config",
  "aws/credentials", "credentials", ".ssh/config", ".ssh/known_hosts", "x/.SSH/id.pub", "ssh/config", "notes.txt", "src/a.ts", "keyboard.ts",
  // Issue 18: the common credential files, their templates, and the home's stores by place.
  "prod.env", "sub/Staging.ENV", "prod.env.example", "x.env.sample", "a.env.template", ".env.sample", ".env.template", ".env.samples", ".env.s", ".env.t",
  ".env.templat", ".env.exa", ".env_prod", ".env-prod", "environment.ts", ".Envrc", "credentials.json", "my-service-account-1.json", "service-account.yaml",
  "terraform.tfstate", "terraform.tfstate.backup", "tfstate", ".npmrc", "npmrc", ".pypirc", "app.keystore", "app.JKS", "jks.txt", ".git-credentials",
  ".vault-token", ".bash_history", ".ZSH_HISTORY", ".python_history", ".psql_history", ".node_repl_history", "bash_history", ".history", ".lesshst",
  "h/.cargo/credentials", "h/.cargo/credentials.toml", "h/.cargo/config.toml", "h/.config/gh/hosts.yml", "h/.config/gh/config.yml", "h/.docker/config.json",
  "config.json", "h/.kube/config", "kube/config", "h/.config/rclone/rclone.conf", "h/.terraform.d/credentials.tfrc.json", "h/.config/gcloud/adc.json",
  "h/.config/other.json", "h/.azure/token.json", "h/.aws/config", "h/.gnupg/pubring.kbx", "h/.gem/credentials", "h/.m2/settings.xml",
  "h/.m2/settings-security.xml", "h/.m2/repository.xml", "h/.config/git/credentials", "h/.config/git/config",
];

const project = tempProject(Object.fromEntries(SAMPLES.map((path) => [path, "x\n"])));
afterAll(() => project.cleanup());
const expected = SAMPLES.filter((path) => !isSecretPath(join(project.root, path))).sort();

describe("SECRET_GLOBS", () => {
  test("the tools' name filter leaves out exactly the secret files", async () => {
    const { paths } = await walkFiles(project.root, ".", { skip: secretTest(SECRET_GLOBS) });
    expect(paths.sort()).toEqual(expected);
  });

  test.skipIf(!hasRg)("ripgrep given them as grep gives them leaves out exactly the secret files, and lists exactly them", () => {
    const args = ["rg", "--no-config", "--files", "--hidden", "--no-ignore", ...secretGlobArgs(SECRET_GLOBS, "exclude")];
    const listed = Bun.spawnSync(args, { cwd: project.root }).stdout.toString().trim().split("\n");
    expect(listed.sort()).toEqual(expected);
    const only = ["rg", "--no-config", "--files", "--hidden", "--no-ignore", ...secretGlobArgs(SECRET_GLOBS, "list")];
    const secrets = Bun.spawnSync(only, { cwd: project.root }).stdout.toString().trim().split("\n");
    expect(secrets.sort()).toEqual(SAMPLES.filter((path) => isSecretPath(join(project.root, path))).sort());
  });
});
