import { describe, expect, test } from "bun:test";
import { isSecretName, isStandardVar, toolEnv } from "../../src/tools/tool-env.ts";

describe("isSecretName", () => {
  test("names that say secret, in any letter case", () => {
    const secret = [
      "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "openai_api_key", "STRIPE_KEY", "SSH_KEYS", "GITHUB_TOKEN", "gh_token", "NPM_TOKEN",
      "HF_TOKEN", "SLACK_BOT_TOKENS", "CLIENT_SECRET", "JWT_SECRET_VALUE", "DB_PASSWORD", "MYSQL_ROOT_PASSWORD", "PGPASSWORD",
      "PASSWD_FILE_CONTENT", "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CREDENTIAL", "GITHUB_PAT", "DB_PASS",
      "SENDGRID_APIKEY", "SIGNING_PRIVATE_KEY_PEM", "npm_config__auth", "BASIC_AUTH", "AWS_ACCESS_KEY_ID", "AWS_REGION",
      "aws_profile", "TOKEN", "KEY", "SHIRO_DEPLOY_TOKEN",
    ];
    expect(secret.filter((name) => !isSecretName(name))).toEqual([]);
  });

  test("everyday variables are not secrets, SHIRO_* and look-alikes included", () => {
    const plain = [
      "PATH", "HOME", "USER", "SHELL", "PWD", "OLDPWD", "LANG", "LC_ALL", "TERM", "TMPDIR", "EDITOR", "SSH_AUTH_SOCK", "DISPLAY",
      "GIT_ASKPASS", "SUDO_ASKPASS", "TOKENIZERS_PARALLELISM", "KEYTIMEOUT", "XAUTHORITY", "NODE_ENV", "SHIRO_HOME", "SHIRO_MODEL",
      "OPENAI_BASE_URL", "MY_SETTING", "MONKEY_BUSINESS", "KEYBOARD_LAYOUT", "PASSAGE", "COMPASS", "NO_COLOR", "CI",
    ];
    expect(plain.filter(isSecretName)).toEqual([]);
  });
});

describe("toolEnv", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    LC_TIME: "C",
    OPENAI_API_KEY: "sk-test-abcdefgh",
    GITHUB_TOKEN: "ghp_123456789",
    NPM_TOKEN: "npm_abcdefgh",
    DATABASE_URL: "postgres://app:pw@db/app",
    SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
    MY_SETTING: "abc",
    CARGO_HOME: "/home/me/.cargo",
    GOPATH: "not a path",
    UNSET: undefined,
  };

  test("an allow-list: the standard variables and path-valued toolchain locators pass, everything else is hidden with its value", () => {
    const { env: kept, hidden } = toolEnv(env);
    expect(kept).toEqual({ PATH: "/usr/bin", HOME: "/home/me", LC_TIME: "C", CARGO_HOME: "/home/me/.cargo" });
    expect(hidden.map((h) => h.name)).toEqual(["OPENAI_API_KEY", "GITHUB_TOKEN", "NPM_TOKEN", "DATABASE_URL", "SSH_AUTH_SOCK", "MY_SETTING", "GOPATH"]);
    expect(hidden.find((h) => h.name === "DATABASE_URL")?.value).toBe("postgres://app:pw@db/app");
  });

  test("pass lets named variables through (exact names), but never the API key", () => {
    const { env: kept, hidden } = toolEnv(env, ["NPM_TOKEN", "my_setting", "OPENAI_API_KEY"]);
    expect(kept.NPM_TOKEN).toBe("npm_abcdefgh");
    expect(kept.MY_SETTING).toBeUndefined();
    expect(kept.OPENAI_API_KEY).toBeUndefined();
    expect(hidden.map((h) => h.name)).toEqual(["OPENAI_API_KEY", "GITHUB_TOKEN", "DATABASE_URL", "SSH_AUTH_SOCK", "MY_SETTING", "GOPATH"]);
  });

  test("the API key's value under any other name is hidden too, whatever pass says", () => {
    const { env: kept, hidden } = toolEnv({ OPENAI_API_KEY: "sk-test-abcdefgh", COPY: "sk-test-abcdefgh", PATH: "/bin" }, ["COPY"]);
    expect(kept).toEqual({ PATH: "/bin" });
    expect(hidden.map((h) => h.name)).toEqual(["OPENAI_API_KEY", "COPY"]);
  });
});

describe("isStandardVar", () => {
  test("terminal, locale and toolchain variables pass; agents, sockets and look-alikes do not", () => {
    const pass = [["TERM", "xterm"], ["LC_ALL", "C.UTF-8"], ["LANGUAGE", "en"], ["EDITOR", "vim"], ["JAVA_HOME", "/usr/lib/jvm"], ["VIRTUAL_ENV", "/p/.venv"]];
    const stay = [["SSH_AUTH_SOCK", "/tmp/a"], ["XDG_RUNTIME_DIR", "/run/user/1"], ["DISPLAY", ":0"], ["JAVA_HOME", "relative"], ["LCX", "1"], ["term", "x"], ["SHIRO_HOME", "/h"]];
    expect(pass.filter(([n, v]) => !isStandardVar(n!, v!))).toEqual([]);
    expect(stay.filter(([n, v]) => isStandardVar(n!, v!))).toEqual([]);
  });
});
