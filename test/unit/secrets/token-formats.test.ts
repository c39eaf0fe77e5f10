import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILED_FORMATS, tokensIn, TOKEN_FORMATS } from "../../../src/secrets/token-formats.ts";
import { REPO } from "../../support/binary.ts";
import { A36, KEY_BODY, TOKENS } from "../../support/tokens.ts";

describe("token formats", () => {
  test("each format finds its tokens whole, alone and inside ordinary text", () => {
    for (const [, token] of TOKENS) {
      expect(tokensIn(token)).toEqual([token]);
      expect(tokensIn(`export TOKEN="${token}" # set by CI\n`)).toEqual([token]);
      expect(tokensIn(`token: (${token}); next line`)).toEqual([token]);
    }
    expect(new Set(TOKENS.map(([name]) => name))).toEqual(new Set(TOKEN_FORMATS.map((f) => f.name)));
  });

  test("a private key's body is found up to its END line, also inside a JSON string and cut short", () => {
    const pem = `${KEY_BODY}-----END OPENSSH PRIVATE KEY-----\nafter`;
    expect(tokensIn(pem)).toEqual([KEY_BODY]);
    const json = JSON.stringify({ private_key: pem });
    expect(tokensIn(json)[0]).toStartWith("-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU");
    expect(tokensIn(json)[0]).toEndWith("\\n");
    expect(tokensIn(KEY_BODY.split("\n").slice(0, 2).join("\n"))).toHaveLength(1); // `head -2 key.pem`
  });

  test("ordinary text is not a token: git SHAs, UUIDs, versions, words, paths, certificates, look-alike names", () => {
    const plain = [
      "3f786850e387550fdab836ed7e6dc881de23001b", // a git SHA
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", // a SHA-256
      "123e4567-e89b-12d3-a456-426614174000", // a UUID
      "v1.22.3", "1.2.3-beta.4+build.5", "2024-05-17T10:22:33Z",
      "ghp_", "ghp_short", "gho_ is GitHub's OAuth prefix", "sk-learn", "scikit-learn", "sk-some-long-kebab-case-identifier-here",
      "task-force-2024-q3-planning-notes", "desk-1234567890abcdefghij", "risk-0123456789abcdefghijkl",
      "npm_config_cache_folder", "npm_lifecycle_event", "pnpm_0123456789abcdefghijklmnopqrstuv", "self_hf_0123456789abcdefghijklmnopqrstuv",
      "AKIA", "AKIAshort", "xoxb-", "pypi-package-name", "glpat-", "AIza short",
      "https://hooks.slack.com/", "https://example.com/api/v1/users?id=42", "/usr/lib/x86_64-linux-gnu/libssl.so.3",
      "eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9.notjson.sig",
      "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2k\n-----END CERTIFICATE-----",
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
      "SGVsbG8sIFdvcmxkISBUaGlzIGlzIG9yZGluYXJ5IGJhc2U2NCB0ZXh0Lg==", // ordinary base64
      "Why does the test in @README fail? Cite file:line.",
    ];
    expect(plain.filter((text) => tokensIn(text).length > 0)).toEqual([]);
  });

  test("docs/secrets.md lists every format, as the code has it", () => {
    const doc = readFileSync(join(REPO, "docs/secrets.md"), "utf8");
    expect(TOKEN_FORMATS.filter((f) => !doc.includes(`| ${f.name} | ${f.shape} |`)).map((f) => f.name)).toEqual([]);
  });

  test("a stream's tail: a piece of a start, or a token that could go on, may grow; anything else is settled", () => {
    const github = COMPILED_FORMATS[0]!;
    const could = (s: string) => github.couldExtend(s, 0);
    expect(["g", "gh", "ghp", "ghp_", `ghp_${A36}`].filter((s) => !could(s))).toEqual([]);
    expect([`ghp_${A36} `, "ghx", "ghp_abc def", `ghp_${"a".repeat(251)}`].filter(could)).toEqual([]);
    expect(github.startsAfter(" ")).toBe(true);
    expect(github.startsAfter("x")).toBe(false);
  });
});
