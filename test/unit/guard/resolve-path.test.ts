import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { diskEnv, displayPath, pathNames, resolvePath } from "../../../src/guard/resolve-path.ts";
import { globMayNameSecret, isSecret } from "../../../src/guard/secret-path.ts";

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-resolve-")));
const root = path.join(base, "proj");
const home = path.join(base, "home");
const outside = path.join(base, "outside");
for (const dir of [root, home, outside, path.join(root, "src"), path.join(home, ".ssh")]) fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(root, ".env"), "");
fs.symlinkSync(".env", path.join(root, "alias.txt"));
fs.symlinkSync(outside, path.join(root, "out-link"));
fs.symlinkSync("../nowhere/.env", path.join(root, "src", "dangling"));
fs.symlinkSync("loop-b", path.join(root, "loop-a"));
fs.symlinkSync("loop-a", path.join(root, "loop-b"));
// The root itself reached through a symlink must still count as inside.
fs.symlinkSync(root, path.join(base, "proj-link"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const env = diskEnv(root, home);

describe("resolvePath", () => {
  const table: [string, { absolute: string; real: string; insideRoot: boolean }][] = [
    ["src/new.ts", { absolute: `${root}/src/new.ts`, real: `${root}/src/new.ts`, insideRoot: true }],
    ["src/../../outside/x", { absolute: `${outside}/x`, real: `${outside}/x`, insideRoot: false }],
    ["../proj/src", { absolute: `${root}/src`, real: `${root}/src`, insideRoot: true }],
    ["/etc/hosts", { absolute: "/etc/hosts", real: fs.realpathSync("/etc/hosts"), insideRoot: false }],
    ["~/.ssh/id_rsa", { absolute: `${home}/.ssh/id_rsa`, real: `${home}/.ssh/id_rsa`, insideRoot: false }],
    ["~", { absolute: home, real: home, insideRoot: false }],
    ["alias.txt", { absolute: `${root}/alias.txt`, real: `${root}/.env`, insideRoot: true }],
    ["out-link/deep/new.txt", { absolute: `${root}/out-link/deep/new.txt`, real: `${outside}/deep/new.txt`, insideRoot: false }],
    ["src/dangling", { absolute: `${root}/src/dangling`, real: `${root}/nowhere/.env`, insideRoot: true }],
    [`${base}/proj-link/src`, { absolute: `${base}/proj-link/src`, real: `${root}/src`, insideRoot: true }],
  ];
  test.each(table)("%p", (raw, expected) => {
    expect(resolvePath(raw, env)).toEqual(expected);
  });

  test("a symlink loop ends instead of hanging", () => {
    expect(resolvePath("loop-a", env).absolute).toBe(`${root}/loop-a`);
  });

  test("paths are shown relative inside the root and absolute outside; a symlink has both names", () => {
    expect(displayPath(`${root}/src/a.ts`, env)).toBe("src/a.ts");
    expect(displayPath(root, env)).toBe(".");
    expect(displayPath(`${outside}/x`, env)).toBe(`${outside}/x`);
    expect(pathNames(resolvePath("alias.txt", env), env)).toEqual(["alias.txt", ".env"]);
    expect(pathNames(resolvePath("src/a.ts", env), env)).toEqual(["src/a.ts"]);
  });
});

describe("secret paths", () => {
  const table: [string, boolean][] = [
    [".env", true],
    [".ENV", true],
    [".env.local", true],
    [".Env.Production", true],
    [".env.example", false],
    ["env.example", false],
    ["src/.env.example", false],
    ["my.env", true], // issue 18: *.env in any folder
    ["my.env.example", false],
    [".env.sample", false],
    [".env.template", false],
    [".env_ci", true],
    [".envrc", true],
    ["credentials.json", true],
    ["ci-service-account.json", true],
    ["terraform.tfstate.backup", true],
    [".npmrc", true],
    [".pypirc", true],
    ["release.keystore", true],
    ["release.jks", true],
    [".git-credentials", true],
    [".vault-token", true],
    ["~/.bash_history", true],
    ["~/.lesshst", true],
    ["~/.cargo/credentials.toml", true],
    ["~/.cargo/config.toml", false],
    ["~/.config/gh/hosts.yml", true],
    ["~/.docker/config.json", true],
    ["config.json", false],
    ["~/.kube/config", true],
    ["~/.config/rclone/rclone.conf", true],
    ["~/.terraform.d/credentials.tfrc.json", true],
    ["~/.config/gcloud/application_default_credentials.json", true],
    ["~/.azure/msal_token_cache.json", true],
    ["~/.gem/credentials", true],
    ["~/.m2/settings-security.xml", true],
    ["~/.m2/repository/a.xml", false],
    ["server.pem", true],
    ["tls/Server.PEM", true],
    ["api.key", true],
    ["keyboard.ts", false],
    ["id_rsa", true],
    ["Id_Rsa", true],
    // public keys are not secrets (outside .ssh); every private key name is
    ["Id_Rsa.pub", false],
    ["id_ed25519", true],
    ["deploy/ID_ED25519_sk", true],
    ["id_ed25519.pub", false],
    ["id_ecdsa", true],
    ["id_ecdsa.pub", false],
    ["id_dsa", true],
    ["id_dsa_old", true],
    ["id_dsa.pub", false],
    ["~/.ssh/id_ed25519.pub", true],
    ["~/.aws/credentials", true],
    ["~/.AWS/Credentials", true],
    ["~/.aws/config", true], // issue 18: the whole ~/.aws is credentials
    ["aws/config", false],
    ["credentials", false],
    ["src/credentials.ts", false],
    ["~/.netrc", true],
    ["~/.pgpass", true],
    ["netrc.md", false],
    ["cert.p12", true],
    ["Store.PFX", true],
    ["p12.txt", false],
    ["~/.ssh/config", true],
    ["~/.SSH/known_hosts", true],
    ["~/.sshrc", false],
    ["alias.txt", true],
    ["src/dangling", true],
  ];
  test.each(table)("%p → %p", (raw, secret) => {
    expect(isSecret(resolvePath(raw, env))).toBe(secret);
  });

  const globs: [string, boolean][] = [
    [".e*", true],
    [".env*", true],
    ["*.pem", true],
    ["id_?sa", true],
    ["*", false],
    ["*.*", false],
    ["*.ts", false],
    ["src/*.KEY", true],
    ["[", false],
    ["id_*", true],
    ["id_ed*", true],
    ["id_*.pub", false],
    ["*.pub", false],
    ["*.p12", true],
    ["*.pfx", true],
    [".net*", true],
    ["~/.pg*", true],
    ["~/.aws/cred*", true],
    ["cred*", true], // issue 18: credentials.json
    ["*.json", false],
    ["*.env", true],
    [".*_history", true],
    ["~/.docker/*.json", true],
    ["~/.kube/con*", true],
    ["*.yml", false],
  ];
  test.each(globs)("glob %p may name a secret: %p", (word, expected) => {
    expect(globMayNameSecret(word)).toBe(expected);
  });
});
