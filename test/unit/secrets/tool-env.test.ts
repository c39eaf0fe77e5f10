import { describe, expect, test } from "bun:test";
import { isKeptOut, isSecretName } from "../../../src/secrets/secret-var-names.ts";
import { toolEnv } from "../../../src/secrets/tool-env.ts";

describe("isSecretName", () => {
  test("names that say secret, in any letter case", () => {
    const secret = [
      "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "openai_api_key", "STRIPE_KEY", "SSH_KEYS", "GITHUB_TOKEN", "gh_token", "NPM_TOKEN",
      "HF_TOKEN", "SLACK_BOT_TOKENS", "CLIENT_SECRET", "JWT_SECRET_VALUE", "DB_PASSWORD", "MYSQL_ROOT_PASSWORD", "PGPASSWORD",
      "PASSWD_FILE_CONTENT", "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CREDENTIAL", "GITHUB_PAT", "DB_PASS",
      "SENDGRID_APIKEY", "SIGNING_PRIVATE_KEY_PEM", "npm_config__auth", "BASIC_AUTH", "AWS_ACCESS_KEY_ID", "AWS_REGION",
      "aws_profile", "TOKEN", "KEY", "SHIRO_DEPLOY_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
      // issue 30: a DSN, a cookie, a session
      "STRIPE_KEY_LIVE", "SSH_KEY_PASSPHRASE", "SENTRY_DSN", "DSN", "AUTH_COOKIE", "COOKIE_JAR", "SESSION_ID", "FLASK_SESSION_KEY", "npm_config_authtoken",
    ];
    expect(secret.filter((name) => !isSecretName(name))).toEqual([]);
  });

  test("everyday variables are not secrets, SHIRO_* and look-alikes included", () => {
    const plain = [
      "PATH", "HOME", "USER", "SHELL", "PWD", "OLDPWD", "LANG", "LC_ALL", "TERM", "TMPDIR", "EDITOR", "SSH_AUTH_SOCK", "DISPLAY",
      "GIT_ASKPASS", "SUDO_ASKPASS", "TOKENIZERS_PARALLELISM", "KEYTIMEOUT", "XAUTHORITY", "NODE_ENV", "SHIRO_HOME", "SHIRO_MODEL",
      "OPENAI_BASE_URL", "MY_SETTING", "MONKEY_BUSINESS", "KEYBOARD_LAYOUT", "PASSAGE", "COMPASS", "NO_COLOR", "CI",
      "NODE_OPTIONS", "GITHUB_SHA", "GITHUB_REPOSITORY", "GITHUB_HEAD_REF", "RUNNER_TEMP", "INPUT_PROMPT", "DATABASE_URL", "ACTIONS_ID_TOKEN_REQUEST_URL",
    ];
    expect(plain.filter(isSecretName)).toEqual([]);
  });
});

describe("toolEnv", () => {
  const GHP = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const runner = {
    PATH: "/usr/bin",
    HOME: "/home/runner",
    CI: "true",
    NODE_OPTIONS: "--max-old-space-size=4096",
    JAVA_OPTS: "-Xmx2g",
    CC: "gcc-13",
    CFLAGS: "-O2 -g",
    PYTHONPATH: "/work/lib",
    GITHUB_SHA: "3f786850e387550fdab836ed7e6dc881de23001b",
    GITHUB_REF: "refs/pull/7/merge",
    GITHUB_WORKSPACE: "/home/runner/work/r/r",
    GITHUB_EVENT_PATH: "/home/runner/work/_temp/_github_workflow/event.json",
    RUNNER_OS: "Linux",
    RUNNER_TEMP: "/home/runner/work/_temp",
    INPUT_PROMPT: "Why does the test in @README fail? Cite file:line.",
    OPENAI_API_KEY: "sk-test-0123456789abcdef",
    INPUT_OPENAI_API_KEY: "sk-test-0123456789abcdef",
    AUTH_HEADER: "Bearer sk-test-0123456789abcdef",
    GITHUB_TOKEN: "ghs_0123456789abcdefghijklmnopqrstuvwxyz",
    ACTIONS_RUNTIME_TOKEN: "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.runtime",
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: "id-token-request-value",
    NPM_TOKEN: "npm_abcdefgh",
    AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    STRIPE_KEY_LIVE: "live-value-12345",
    DATABASE_URL: "postgres://app:pw@db/app",
    DEPLOY_THING: GHP,
    SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
    BASH_ENV: "/home/me/.bash_env",
    SHIRO_HOME: "/home/me/.shiro-neko",
    UNSET: undefined,
  };

  test("the person's environment less what marks a secret: what a build reads passes, secrets and sockets do not", () => {
    const { env, withheld } = toolEnv(runner);
    expect(Object.keys(env).sort()).toEqual(
      ["PATH", "HOME", "CI", "NODE_OPTIONS", "JAVA_OPTS", "CC", "CFLAGS", "PYTHONPATH", "GITHUB_SHA", "GITHUB_REF", "GITHUB_WORKSPACE", "GITHUB_EVENT_PATH", "RUNNER_OS", "RUNNER_TEMP", "INPUT_PROMPT"].sort(),
    );
    expect(env.NODE_OPTIONS).toBe("--max-old-space-size=4096");
    expect(env.INPUT_PROMPT).toBe(runner.INPUT_PROMPT);
    expect(Object.fromEntries(withheld.map((w) => [w.name, w.why]))).toEqual({
      OPENAI_API_KEY: "the API key",
      INPUT_OPENAI_API_KEY: "the API key",
      AUTH_HEADER: "the API key",
      GITHUB_TOKEN: "a secret name",
      ACTIONS_RUNTIME_TOKEN: "a secret name",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "a secret name",
      NPM_TOKEN: "a secret name",
      AWS_SECRET_ACCESS_KEY: "a secret name",
      STRIPE_KEY_LIVE: "a secret name",
      DATABASE_URL: "a URL password",
      DEPLOY_THING: "a token",
      SSH_AUTH_SOCK: "not for commands",
      BASH_ENV: "not for commands",
      SHIRO_HOME: "not for commands",
    });
  });

  test("the values for the redactor are those evidence marks secret, never a value for how it looks", () => {
    const { values } = toolEnv({ ...runner, URL_WITH_LONG_PW: "https://me:long-password-1@example.com/x" });
    const names = values.map((v) => `${v.name}=${v.value}`);
    expect(names).toContain("GITHUB_TOKEN=ghs_0123456789abcdefghijklmnopqrstuvwxyz");
    expect(names).toContain(`DEPLOY_THING=${GHP}`);
    expect(names).toContain("URL_WITH_LONG_PW=long-password-1");
    expect(names).toContain("OPENAI_API_KEY=sk-test-0123456789abcdef");
    expect(names).toContain("INPUT_OPENAI_API_KEY=sk-test-0123456789abcdef"); // a token format, and the key
    expect(values.filter((v) => ["INPUT_PROMPT", "NODE_OPTIONS", "GITHUB_SHA", "GITHUB_EVENT_PATH", "CFLAGS", "DATABASE_URL"].includes(v.name))).toEqual([]);
  });

  test("sandbox.env lets a secret through (never the API key); denyEnv keeps anything out and wins; secrets.env makes a name secret", () => {
    const rules = { pass: ["NPM_TOKEN", "DEPLOY_THING", "SSH_AUTH_SOCK", "OPENAI_API_KEY", "INPUT_OPENAI_API_KEY", "CC"], deny: ["JAVA_OPTS", "CC"], secret: ["CFLAGS"] };
    const { env, withheld, values } = toolEnv(runner, rules);
    expect([env.NPM_TOKEN, env.DEPLOY_THING, env.SSH_AUTH_SOCK]).toEqual(["npm_abcdefgh", GHP, "/tmp/ssh-x/agent.1"]);
    expect([env.OPENAI_API_KEY, env.INPUT_OPENAI_API_KEY, env.JAVA_OPTS, env.CC, env.CFLAGS]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(withheld.filter((w) => ["JAVA_OPTS", "CC", "CFLAGS"].includes(w.name))).toEqual([
      { name: "JAVA_OPTS", why: "denied" },
      { name: "CC", why: "denied" },
      { name: "CFLAGS", why: "a secret name" },
    ]);
    // Passed or not, a value evidence marks secret is still redacted from what a command prints.
    expect(values.some((v) => v.name === "NPM_TOKEN")).toBe(true);
    expect(values.some((v) => v.name === "CFLAGS")).toBe(false); // "-O2 -g": under 8 characters
  });

  test("the API key's value under any other name is withheld, whatever pass says; a key too short to tell is matched whole only", () => {
    expect(toolEnv({ OPENAI_API_KEY: "sk-test-abcdefgh", COPY: "sk-test-abcdefgh", PATH: "/bin" }, { pass: ["COPY"] }).env).toEqual({ PATH: "/bin" });
    expect(toolEnv({ OPENAI_API_KEY: "x", NOTE: "a text with x in it", PATH: "/bin" }).env).toEqual({ NOTE: "a text with x in it", PATH: "/bin" });
  });
});

describe("isKeptOut", () => {
  test("sockets, askpass helpers, shell start-up, git config in the environment and shiro's own: no secrets, but out", () => {
    const out = ["SSH_AUTH_SOCK", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "GIT_ASKPASS", "SSH_ASKPASS", "VSCODE_GIT_IPC_HANDLE", "BASH_ENV", "ENV", "BASHOPTS", "BASH_FUNC_ls%%", "GIT_CONFIG_COUNT", "GIT_CONFIG_VALUE_0", "SHIRO_PERMISSIONS", "DISPLAY"];
    const stay = ["LD_PRELOAD", "LD_LIBRARY_PATH", "NODE_OPTIONS", "GIT_AUTHOR_NAME", "GIT_DIR", "XDG_CONFIG_HOME", "ENVIRONMENT", "BASH_VERSION_WANTED", "TERM"];
    expect(out.filter((n) => !isKeptOut(n))).toEqual([]);
    expect(stay.filter(isKeptOut)).toEqual([]);
  });
});
