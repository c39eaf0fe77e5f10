import { describe, expect, test } from "bun:test";
import { isSecretName, toolEnv } from "../../src/tools/tool-env.ts";

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
    OPENAI_API_KEY: "sk-test-abcdefgh",
    GITHUB_TOKEN: "ghp_123456789",
    NPM_TOKEN: "npm_abcdefgh",
    AWS_REGION: "eu-west-1",
    MY_SETTING: "abc",
    SHIRO_HOME: "/tmp/h",
    UNSET: undefined,
  };

  test("hides the secret names, keeps the rest, and says what it hid with the values", () => {
    const { env: kept, hidden } = toolEnv(env);
    expect(kept).toEqual({ PATH: "/usr/bin", MY_SETTING: "abc", SHIRO_HOME: "/tmp/h" });
    expect(hidden).toEqual([
      { name: "OPENAI_API_KEY", value: "sk-test-abcdefgh" },
      { name: "GITHUB_TOKEN", value: "ghp_123456789" },
      { name: "NPM_TOKEN", value: "npm_abcdefgh" },
      { name: "AWS_REGION", value: "eu-west-1" },
    ]);
  });

  test("pass lets named variables through (exact names), but never the API key", () => {
    const { env: kept, hidden } = toolEnv(env, ["NPM_TOKEN", "aws_region", "OPENAI_API_KEY"]);
    expect(kept.NPM_TOKEN).toBe("npm_abcdefgh");
    expect(kept.AWS_REGION).toBeUndefined();
    expect(kept.OPENAI_API_KEY).toBeUndefined();
    expect(hidden.map((h) => h.name)).toEqual(["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_REGION"]);
  });

  test("the API key's value under any other name is hidden too, whatever pass says", () => {
    const { env: kept, hidden } = toolEnv({ OPENAI_API_KEY: "sk-test-abcdefgh", COPY: "sk-test-abcdefgh", OTHER: "x" }, ["COPY"]);
    expect(kept).toEqual({ OTHER: "x" });
    expect(hidden.map((h) => h.name)).toEqual(["OPENAI_API_KEY", "COPY"]);
  });
});
