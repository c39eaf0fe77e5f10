import { describe, expect, test } from "bun:test";
import { gitConfigSecrets, looksLikeSecret, secretValues, urlPasswords } from "../../../src/secrets/secret-values.ts";

describe("secretValues", () => {
  test(".env: quoted, exported and commented values; settings that are no secret stay", () => {
    const text = [
      "API_KEY=sk-live-0123456789", 'export DB_PASSWORD="hunter2hunter"', "STRIPE='rk_live_AbCd1234EfGh'", "TOKEN=abcdefgh12 # the deploy token",
      "# OLD_KEY=commented0ut0value", "NODE_ENV=development", "PORT=30000000", "REGION=us-east-1", "APP_NAME=My Cool App", "DATA_DIR=/var/lib/app",
      "SITE=https://example.com/path", "ADMIN=me@example.com", "DEBUG=true", "DATABASE_URL=postgres://app:pg-Secret-99@db:5432/app",
    ].join("\n");
    expect(secretValues("/p/.env", text).sort()).toEqual(
      ["sk-live-0123456789", "hunter2hunter", "rk_live_AbCd1234EfGh", "abcdefgh12", "postgres://app:pg-Secret-99@db:5432/app", "pg-Secret-99"].sort(),
    );
  });

  test(".npmrc, .pypirc, .netrc, .pgpass, .git-credentials", () => {
    expect(secretValues("/h/.npmrc", "//registry.npmjs.org/:_authToken=npm_AbCdEf123456\n_auth=dXNlcjpwYXNzd29yZA==\n_password=cGFzc3dvcmQx\nregistry=https://r.example/\n")).toEqual(
      ["npm_AbCdEf123456", "dXNlcjpwYXNzd29yZA==", "cGFzc3dvcmQx"],
    );
    expect(secretValues("/h/.pypirc", "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc\n")).toEqual(["pypi-AgEIcHlwaS5vcmc"]);
    expect(secretValues("/h/.netrc", "machine api.example.com login me password n3trc-Pass-42\n")).toEqual(["n3trc-Pass-42"]);
    expect(secretValues("/h/.pgpass", "db.example:5432:app:admin:pgp4ss:with:colons\n")).toEqual(["pgp4ss:with:colons"]);
    expect(secretValues("/h/.git-credentials", "https://me:ghp_AbCdEfGh12345678@github.com\n")).toEqual(["ghp_AbCdEfGh12345678"]);
  });

  test("JSON, YAML and XML credentials; a private key line by line (in a PEM, or escaped in JSON)", () => {
    const json = JSON.stringify({ type: "service_account", project_id: "demo-project", private_key: "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB\n-----END PRIVATE KEY-----\n", client_email: "a@b.iam.example.com" });
    const values = secretValues("/p/credentials.json", json);
    expect(values).toContain("MIIEvQIBADANBgkqhkiG9w0B");
    expect(values).toContain("AQEFAASCBKcwggSjAgEAAoIB");
    expect(values).not.toContain("demo-project");
    expect(secretValues("/h/.config/gh/hosts.yml", "github.com:\n    oauth_token: gho_AbCdEf1234567890\n    user: someone\n")).toEqual(["gho_AbCdEf1234567890"]);
    expect(secretValues("/h/.m2/settings.xml", "<server><id>x</id><password>m4ven-Pass-77</password></server>")).toEqual(["m4ven-Pass-77"]);
    expect(secretValues("/p/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n")).toEqual(["b3BlbnNzaC1rZXktdjEAAAAA"]);
  });
});

describe("urlPasswords", () => {
  test("a remote URL's token, not its host or user", () => {
    const config = '[remote "origin"]\n\turl = https://x-access-token:ghs_Tok3nTok3nTok3n@github.com/o/r.git\n[remote "b"]\n\turl = git@github.com:o/r.git\n';
    expect(urlPasswords(config)).toEqual(["ghs_Tok3nTok3nTok3n"]);
  });
});

describe("gitConfigSecrets", () => {
  test("a remote URL's password, and the job token actions/checkout leaves as an extraheader (encoded and decoded)", () => {
    const token = "ghs_CheckoutToken0123456789abcdefXYZ";
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    const config = `[remote "origin"]\n\turl = https://me:remote-pass-123@example.com/r.git\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${basic}\n[core]\n\tbare = false\n`;
    expect(gitConfigSecrets(config)).toEqual(["remote-pass-123", basic, token]);
    expect(gitConfigSecrets("[core]\n\tbare = false\n")).toEqual([]);
  });
});

describe("looksLikeSecret", () => {
  test("random-looking values are; numbers, paths, words, plain URLs, host:port and e-mail are not", () => {
    expect(["sk_live_51Habc", "xoxb-1234-abcd", "Zm9vYmFyYmF6", "CorrectHorse", "a1b2c3d4e5"].filter((v) => !looksLikeSecret(v))).toEqual([]);
    const plain = ["12345678", "1.2.3.4.5", "v10.22.1", "/usr/local/bin", "~/projects", "./build/out", "https://example.com/x", "localhost:5432",
      "me@example.com", "development", "us-east-1", "my_app_name", "Hello World App", "short", "undefined"];
    expect(plain.filter(looksLikeSecret)).toEqual([]);
  });
});
