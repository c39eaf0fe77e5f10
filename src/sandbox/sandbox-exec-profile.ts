import type { SandboxPolicy } from "./sandbox-policy.ts";

// SBPL string literals: a backslash or a quote in a path must not end the string.
const quote = (path: string) => `"${path.replace(/[\\"]/g, "\\$&")}"`;
// SBPL's regexes have no case flag, and macOS file names are case-insensitive: spell each letter both ways.
const anyCase = (source: string) => source.replace(/[a-z]/g, (ch) => `[${ch}${ch.toUpperCase()}]`);
const regex = (source: string) => `(regex #"${anyCase(source)}")`;

/**
 * The macOS `sandbox-exec` profile for `policy` (the same policy as bwrap's). Everything may be read
 * but the secrets; writes go only to the temp folders and, at `workspace-write`, the project — and
 * never to a file with a secret's name, so on macOS a new `.env` is refused by the policy itself.
 */
export function sandboxExecProfile(policy: SandboxPolicy, tmpDirs: readonly string[]): string {
  const writable = [...tmpDirs, ...(policy.level === "workspace-write" ? [policy.root] : [])].map((d) => `(subpath ${quote(d)})`);
  const secrets = [...policy.maskFiles.map((f) => `(literal ${quote(f)})`), ...policy.maskDirs.map((d) => `(subpath ${quote(d)})`)];
  return [
    "(version 1)",
    "(allow default)",
    `(deny file-write* (subpath "/"))`,
    `(allow file-write* ${[...writable, '(literal "/dev/null")', '(literal "/dev/tty")'].join(" ")})`,
    // A secret's name anywhere: .env, .env.* (not .env.example), keys, .netrc, .pgpass, .ssh/.
    `(deny file-write* ${[String.raw`/\.env(\.[^/]*)?$`, String.raw`\.(pem|key|p12|pfx)$`, String.raw`/id_(rsa|dsa|ecdsa|ed25519)[^/]*$`, String.raw`/\.(netrc|pgpass)$`, String.raw`/\.ssh(/|$)`].map(regex).join(" ")})`,
    // The rule that matches last wins: these names are not secrets, but only where writes are allowed at all.
    `(allow file-write* (require-all (require-any ${writable.join(" ")}) (require-any ${regex(String.raw`/\.env\.example$`)} ${regex(String.raw`/id_[^/]*\.pub$`)})))`,
    ...(policy.readOnly.length ? [`(deny file-write* ${policy.readOnly.map((p) => `(subpath ${quote(p)})`).join(" ")})`] : []),
    ...(secrets.length ? [`(deny file-read* file-write* ${secrets.join(" ")})`] : []),
    ...(policy.network ? [] : ["(deny network*)"]),
  ].join("\n");
}
