/**
 * Issue 18's layout: a home full of dotfiles holding credentials, and a project at ~/code/proj holding
 * each common credential file, a git history with a committed `.env`, and a remote URL with a token.
 * Every secret carries its own marker (letters and hex: JSON never escapes them); `leaked` names the
 * markers found in a text, so a test asserts outcomes, not wording.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, writeFileSync, copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { attackLayout, layoutEnv, type Layout } from "./attack-layout.ts";
import { git } from "./guard-projects.ts";

export type DotfileHome = {
  layout: Layout;
  /** The project, ~/code/proj. */
  root: string;
  /** Marker by the secret it is in (`~/.pypirc`, `prod.env`, `HEAD:.env`, `remote token`…). */
  markers: Record<string, string>;
  env: Record<string, string>;
  leaked(text: string): string[];
};

const marker = (tag: string) => `${tag.replace(/[^a-z]/gi, "").toLowerCase()}${randomBytes(10).toString("hex")}`;

/** Project files: name → content holding the marker `v`. */
export const PROJECT_SECRETS: Record<string, (v: string) => string> = {
  "prod.env": (v) => `DB_PASSWORD=${v}\n`,
  ".env_ci": (v) => `CI_TOKEN=${v}\n`,
  ".envrc": (v) => `export DEPLOY_KEY=${v}\n`,
  "credentials.json": (v) => JSON.stringify({ installed: { client_id: "x.apps.example.com", client_secret: v } }),
  "ci-service-account.json": (v) => JSON.stringify({ type: "service_account", private_key_id: v }),
  "terraform.tfstate": (v) => JSON.stringify({ resources: [{ instances: [{ attributes: { password: v } }] }] }),
  ".npmrc": (v) => `//registry.npmjs.org/:_authToken=${v}\n`,
  ".pypirc": (v) => `[pypi]\nusername = __token__\npassword = ${v}\n`,
  "release.keystore": (v) => `keystore ${v}\n`,
  "release.jks": (v) => `jks ${v}\n`,
  ".netrc": (v) => `machine api.example.com login me password ${v}\n`,
  ".pgpass": (v) => `db.example.com:5432:app:admin:${v}\n`,
  ".git-credentials": (v) => `https://me:${v}@git.example.com\n`,
  ".vault-token": (v) => `${v}\n`,
  ".bash_history": (v) => `export GITHUB_TOKEN=${v}\n`,
  ".python_history": (v) => `token = "${v}"\n`,
  ".psql_history": (v) => `\\password ${v}\n`,
};

/** Home files (relative to ~) the file tools must not read. */
export const HOME_SECRETS: Record<string, (v: string) => string> = {
  ".pypirc": (v) => `[pypi]\npassword = ${v}\n`,
  ".npmrc": (v) => `//registry.npmjs.org/:_authToken=${v}\n`,
  ".git-credentials": (v) => `https://me:${v}@github.com\n`,
  ".zsh_history": (v) => `: 1700000000:0;export STRIPE_KEY=${v}\n`,
  ".cargo/credentials.toml": (v) => `[registry]\ntoken = "${v}"\n`,
  ".config/gh/hosts.yml": (v) => `github.com:\n    oauth_token: ${v}\n`,
  ".docker/config.json": (v) => JSON.stringify({ auths: { "registry.example.com": { auth: v } } }),
  ".kube/config": (v) => `users:\n- name: me\n  user:\n    token: ${v}\n`,
  ".config/rclone/rclone.conf": (v) => `[remote]\ntype = s3\nsecret_access_key = ${v}\n`,
  ".terraform.d/credentials.tfrc.json": (v) => JSON.stringify({ credentials: { "app.terraform.io": { token: v } } }),
  ".config/gcloud/application_default_credentials.json": (v) => JSON.stringify({ refresh_token: v }),
  ".aws/credentials": (v) => `[default]\naws_secret_access_key = ${v}\n`,
  ".gem/credentials": (v) => `---\n:rubygems_api_key: ${v}\n`,
  ".m2/settings.xml": (v) => `<settings><servers><server><password>${v}</password></server></servers></settings>`,
};

export function dotfileHome(): DotfileHome {
  const layout = attackLayout("dotfile-home");
  const root = join(layout.home, "code", "proj");
  const markers: Record<string, string> = {};
  const put = (path: string, content: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const [name, content] of Object.entries(PROJECT_SECRETS)) put(join(root, name), content((markers[name] = marker(name))));
  for (const [rel, content] of Object.entries(HOME_SECRETS)) put(join(layout.home, rel), content((markers[`~/${rel}`] = marker(rel))));
  put(join(root, "readme.txt"), "seen: an ordinary project file\n");
  put(join(layout.home, "notes.txt"), "seen: an ordinary home file\n");

  // History: `.env` committed with one value, then changed in the working tree.
  put(join(root, ".env"), `API_KEY=${(markers["HEAD:.env"] = marker("committed"))}\n`);
  put(join(root, ".gitignore"), Object.keys(PROJECT_SECRETS).join("\n") + "\nhardlink.txt\ncopy.txt\n");
  git(root, "init", "-q");
  git(root, "config", "user.name", "Test");
  git(root, "config", "user.email", "test@example.invalid");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "first");
  git(root, "remote", "add", "origin", `https://x-access-token:${(markers["remote token"] = marker("remote"))}@github.com/o/r.git`);
  put(join(root, ".env"), `API_KEY=${(markers[".env"] = marker("live"))}\n`);
  // Made before the run, under names that are no secret's.
  linkSync(join(root, ".env"), join(root, "hardlink.txt"));
  copyFileSync(join(root, "prod.env"), join(root, "copy.txt"));

  const env = { ...layoutEnv(layout), HOME: layout.home };
  const leaked = (text: string) => Object.entries(markers).filter(([, v]) => text.includes(v)).map(([k]) => k);
  return { layout, root, markers, env, leaked };
}
