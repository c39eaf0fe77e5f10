import { basename } from "node:path";
import { MIN_REDACTED_LENGTH } from "./redact.ts";
import { isSecretName } from "./secret-var-names.ts";

// A key that says its value is a credential: `_authToken`, `password`, `aws_secret_access_key`, `oauth_token`, `private_key`.
const SECRET_KEY = /(?:token|auth|pass|password|passwd|passphrase|secret|key|credentials?|pat)$/i;
// `KEY=VALUE` first (an .npmrc key holds colons: `//host/:_authToken=…`), then YAML's `key: value`.
const ASSIGNMENTS = [/^\s*(?:export\s+)?([^\s=#;]+)\s*=\s*(.*?)\s*$/, /^\s*["']?([\w.-]+)["']?\s*:\s+(.*?)\s*$/];
const JSON_PAIR = /"([^"\\]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const XML_ELEMENT = /<([\w-]*(?:password|passphrase|token|secret)[\w-]*)>([^<]+)<\//gi;
const NETRC_PASSWORD = /(?:^|\s)password\s+(\S+)/g;
const BEARER = /\b(?:Bearer|token)\s+([A-Za-z0-9._~+/=-]{16,})/g;
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"]*:([^\s/@'"]+)@/gi;
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----([\s\S]*?)-----END [A-Z0-9 ]*PRIVATE KEY-----/g;

/**
 * The secret values a secret file's text holds, whatever its kind: values of `KEY=VALUE` and `key: value`
 * lines (.env, .npmrc, .pypirc, YAML, INI), JSON and XML credentials, .netrc and .pgpass passwords, URL
 * userinfo passwords, Bearer tokens, and each line of a private key's body. A value under a key that
 * says "secret" counts from MIN_REDACTED_LENGTH; any other only when it looks like one (looksLikeSecret).
 */
export function secretValues(path: string, text: string): string[] {
  const found: string[] = [];
  const keep = (key: string, raw: string) => {
    const value = unquote(raw);
    if (SECRET_KEY.test(key) || isSecretName(key) ? value.length >= MIN_REDACTED_LENGTH : looksLikeSecret(value)) found.push(value);
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(line)) continue;
    const m = ASSIGNMENTS.map((pattern) => pattern.exec(line)).find(Boolean);
    if (m && !m[2]!.startsWith("{") && !m[2]!.startsWith("[")) keep(m[1]!, m[2]!.replace(/\s+#.*$/, ""));
  }
  if (basename(path).toLowerCase() === ".pgpass") for (const line of text.split("\n")) keep("password", line.split(":").slice(4).join(":"));
  for (const [, key, raw] of text.matchAll(JSON_PAIR)) keep(key!, jsonString(raw!));
  for (const [, key, raw] of text.matchAll(XML_ELEMENT)) keep(key!, raw!);
  for (const pattern of [NETRC_PASSWORD, BEARER, URL_PASSWORD]) for (const [, value] of text.matchAll(pattern)) keep("password", value!);
  found.push(...privateKeyLines(text), ...privateKeyLines(found.join("\n")));
  return [...new Set(found)].filter((v) => v.length >= MIN_REDACTED_LENGTH);
}

/** The body lines of every private key in `text` (a line at a time, so a partial print is covered too). */
function privateKeyLines(text: string): string[] {
  return [...text.matchAll(PRIVATE_KEY)].flatMap(([, body]) => body!.split(/\r?\n|\\n/).map((l) => l.trim()).filter((l) => l && !l.includes(":")));
}

/** The passwords in URLs' userinfo (`https://user:TOKEN@host`), as in a `.git/config` remote. */
export const urlPasswords = (text: string): string[] => [...text.matchAll(URL_PASSWORD)].map((m) => unquote(m[1]!)).filter((v) => v.length >= MIN_REDACTED_LENGTH);

// actions/checkout leaves the job's token in .git/config as `extraheader = AUTHORIZATION: basic <base64 of x-access-token:TOKEN>`.
const AUTH_HEADER = /^\s*extraheader\s*=\s*"?authorization:\s*(basic|bearer)\s+([A-Za-z0-9+/=._~-]+)/gim;

/** A `.git/config`'s credentials: remote URLs' passwords, and the credentials in `http.extraheader` (and a basic one's password, decoded). */
export function gitConfigSecrets(text: string): string[] {
  const found = urlPasswords(text);
  for (const [, scheme, value] of text.matchAll(AUTH_HEADER)) {
    found.push(value!);
    if (scheme!.toLowerCase() === "basic") found.push(Buffer.from(value!, "base64").toString("utf8").split(":").slice(1).join(":"));
  }
  return found.filter((v) => v.length >= MIN_REDACTED_LENGTH);
}

/** Whether a URL in `text` carries a password, however short (a variable holding one is kept from commands). */
export const hasUrlPassword = (text: string): boolean => [...text.matchAll(URL_PASSWORD)].length > 0;

/**
 * Whether a value with no telling name looks like a secret rather than a setting: long enough, and not a
 * number, version, path, plain URL, host:port, e-mail address, or words (`development`, `us-east-1`,
 * `My App`) — those turn up in ordinary output, which redacting them would mangle.
 */
export function looksLikeSecret(value: string): boolean {
  if (value.length < MIN_REDACTED_LENGTH) return false;
  if (/^[-+]?[\d.,_:]+$/.test(value) || /^v?\d+(?:\.\d+)+[\w.-]*$/.test(value)) return false;
  if (/^(?:~|\.{1,2})?\//.test(value) || /^\/|^[A-Za-z]:\\/.test(value)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value) || /^[\w.-]+:\d+$/.test(value) || /^[^\s@]+@[\w-]+(?:\.[\w-]+)+$/.test(value)) return false;
  if (/^_*[a-z]+(?:[-_.][a-z]+)*(?:[-_.]?\d{1,2})?_*$/.test(value) || /^[A-Za-z]+(?: [A-Za-z]+)+$/.test(value)) return false;
  return !/^(?:true|false|null|none|undefined)$/i.test(value);
}

function unquote(raw: string): string {
  const v = raw.trim().replace(/[;,]$/, "");
  return /^(["'`]).*\1$/.test(v) ? v.slice(1, -1) : v;
}

function jsonString(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
