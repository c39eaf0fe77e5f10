import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLiveRedactor } from "../../../src/secrets/live-redactor.ts";
import type { NamedValue } from "../../../src/secrets/redact.ts";
import { isSecretPath } from "../../../src/guard/secret-path.ts";
import { createHeadSecretValues, headCommit } from "../../../src/secrets/head-secret-values.ts";
import { createKnownSecretValues } from "../../../src/secrets/known-secret-values.ts";
import { createSecretFileValues } from "../../../src/secrets/secret-file-values.ts";
import { secretValues } from "../../../src/secrets/secret-values.ts";
import { toolEnv } from "../../../src/secrets/tool-env.ts";
import { git } from "../../support/guard-projects.ts";
import { tempDir } from "../../support/run-shiro.ts";

const values = (found: readonly NamedValue[]) => found.map((v) => `${v.name}=${v.value}`).sort();

describe("createSecretFileValues", () => {
  test("reads a file again only when it changed; a file gone, a folder or a binary holds nothing", () => {
    const dir = realpathSync(tempDir("secret-files"));
    const env = join(dir, ".env");
    writeFileSync(env, "API_KEY=first-value-1\n");
    writeFileSync(join(dir, "bin.key"), "KEY=binary-value-1\0\n");
    let parsed = 0;
    const parse = (path: string, text: string) => (parsed++, secretValues(path, text));
    const read = createSecretFileValues();
    const files = [env, join(dir, "bin.key"), join(dir, "gone.env"), dir].map((path) => ({ path, label: "f", parse }));
    expect(values(read(files))).toEqual(["f=first-value-1"]);
    expect(values(read(files))).toEqual(["f=first-value-1"]);
    expect(parsed).toBe(1); // the binary one is never parsed; the .env only once while unchanged
    writeFileSync(env, "API_KEY=second-value-22\n");
    expect(values(read(files))).toEqual(["f=second-value-22"]);
    expect(parsed).toBe(2);
  });
});

describe("createKnownSecretValues", () => {
  test("project and home secret files, a remote URL's token, the environment's secrets by evidence; settings, paths and a note are left alone", () => {
    const home = realpathSync(tempDir("known-home"));
    const root = join(home, "code", "proj");
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(root, "sub", "prod.env"), "DB_PASSWORD=proj-secret-1\nNODE_ENV=production\n");
    writeFileSync(join(root, "readme.txt"), "TOKEN=not-a-secret-file\n");
    writeFileSync(join(home, ".npmrc"), "//r.example/:_authToken=npm-home-token-1\n");
    writeFileSync(join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = aws-home-secret-1\n");
    git(root, "init", "-q");
    git(root, "remote", "add", "origin", "https://me:ghp_remote_token_1@github.com/o/r.git");
    const known = createKnownSecretValues({
      root,
      home,
      isSecretPath,
      envValues: toolEnv({
        STRIPE_KEY_LIVE: "sk_live_abc123def456",
        DATABASE_URL: "postgres://app:db-url-pass-1@db/app",
        SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
        DISPLAY: ":0",
        DEPLOY_STAGE: "production",
        NOTE: "Why? a1b2c3d4e5 see me@example.org", // looks secret, says nothing: not redacted (issue 30)
      }).values,
    });
    expect(values(known())).toEqual([
      ".git/config=ghp_remote_token_1",
      "DATABASE_URL=db-url-pass-1",
      "STRIPE_KEY_LIVE=sk_live_abc123def456",
      "sub/prod.env=proj-secret-1",
      "~/.aws/credentials=aws-home-secret-1",
      "~/.npmrc=npm-home-token-1",
    ]);
  });
});

describe("createHeadSecretValues", () => {
  test("the secret files committed at HEAD, read again when HEAD moves", () => {
    const root = realpathSync(tempDir("head-secrets"));
    git(root, "init", "-q");
    git(root, "config", "user.name", "T");
    git(root, "config", "user.email", "t@example.invalid");
    writeFileSync(join(root, ".env"), "API_KEY=committed-one-1\n");
    writeFileSync(join(root, "app.ts"), "const KEY = 'not-in-a-secret-file-1';\n");
    const head = createHeadSecretValues(root, isSecretPath);
    expect(head()).toEqual([]); // no commit yet
    git(root, "add", "-A");
    git(root, "commit", "-qm", "one");
    expect(headCommit(join(root, ".git"))).toBe(git(root, "rev-parse", "HEAD"));
    expect(values(head())).toEqual(["HEAD:.env=committed-one-1"]);
    writeFileSync(join(root, ".env"), "API_KEY=committed-two-22\n");
    expect(values(head())).toEqual(["HEAD:.env=committed-one-1"]); // the working tree is not HEAD
    git(root, "commit", "-qam", "two");
    expect(values(head())).toEqual(["HEAD:.env=committed-two-22"]);
    git(root, "pack-refs", "--all");
    expect(headCommit(join(root, ".git"))).toBe(git(root, "rev-parse", "HEAD"));
  });
});

describe("createLiveRedactor", () => {
  test("hides what is known at the last refresh, and rebuilds only when the values changed", () => {
    let known: NamedValue[] = [{ name: ".env", value: "first-secret-1" }];
    let asked = 0;
    const redactor = createLiveRedactor(() => (asked++, known));
    expect(redactor.text("a first-secret-1 b")).toBe("a [redacted .env] b");
    known = [{ name: ".env", value: "second-secret-2" }];
    expect(redactor.text("second-secret-2")).toBe("second-secret-2"); // not refreshed yet
    redactor.refresh!();
    expect(redactor.text("first-secret-1 second-secret-2")).toBe("first-secret-1 [redacted .env]");
    expect(asked).toBe(2);
  });
});
