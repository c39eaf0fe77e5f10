/**
 * Issue 30: the model reads a project file holding secret values and sees `[redacted NAME]` markers;
 * when it writes what it read back (write_file whole, edit_file next to a secret, apply_patch with the
 * secret in its context lines), the person's bytes must come out as they were — never a marker in the
 * file. A marker the file did not hold is refused with one line. Through the compiled binary, the
 * strict server and a scripted model that writes only what it was shown.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob, type JobResult } from "../../support/scripted-job.ts";
import { visibleOutputs, type PlannedCall, type Step } from "../../support/scripts.ts";

/** A project in a temp home: `.env` with two values, and a config file holding both, one twice, and a GitHub token. */
function fixture() {
  const base = tempDir("write-back");
  const home = join(base, "home");
  const root = join(home, "code", "proj");
  mkdirSync(join(root, "src"), { recursive: true });
  const api = `tok_live_${randomBytes(12).toString("hex")}`;
  const db = `pw_${randomBytes(12).toString("hex")}`;
  const gh = `ghp_${randomBytes(18).toString("base64url").slice(0, 36)}`;
  writeFileSync(join(root, ".env"), `API_TOKEN=${api}\nDB_PASSWORD=${db}\n`);
  // CRLF, unicode, no final newline: a file as people have them.
  const config = [
    "// Service configuration — ünïcode ✓ 設定",
    "const config = {",
    `  apiToken: "${api}", // from .env`,
    `  db: { user: "app", password: "${db}" },`,
    `  fallbackToken: "${api}",`,
    `  github: "${gh}",`,
    "  retries: 3,",
    "};",
    "",
    "export default config;",
  ].join("\r\n");
  writeFileSync(join(root, "src", "config.js"), config);
  writeFileSync(join(root, "src", "plain.js"), "export const plain = true;\n");
  const file = (rel: string) => readFileSync(join(root, rel));
  return { root, home, shiroHome: join(base, "shiro"), secrets: [api, db, gh], config, gh, file };
}
type Fixture = ReturnType<typeof fixture>;

async function run(fx: Fixture, steps: Step[]): Promise<JobResult> {
  // GITHUB_TOKEN is kept from commands and its value redacted from every output, the token shown as `[redacted GITHUB_TOKEN]`.
  return scriptedJob(steps, { cwd: fx.root, home: fx.home, args: ["--yolo", "--max-steps", "10"], env: { SHIRO_HOME: fx.shiroHome, GITHUB_TOKEN: fx.gh } });
}

const read: PlannedCall = { name: "read_file", arguments: { path: "src/config.js" } };

/** The file's text exactly as read_file showed it to the model (the `cat -n` numbers taken off); "" before the read. */
function shown(input: any[]): string {
  const output = visibleOutputs(input).find((o) => o.name === "read_file" && (o.arguments as any).path === "src/config.js")?.output ?? "";
  return output
    .split("\n")
    .filter((line) => /^\s*\d+\t/.test(line))
    .map((line) => line.replace(/^\s*\d+\t/, ""))
    .join("\n");
}

/** The request bodies and stdout hold no secret value: what the model and the person saw after the write stayed redacted. */
function expectNoValueShown(fx: Fixture, job: JobResult) {
  const seen = job.requests.map((r) => r.raw).join("\n") + job.stdout + job.stderr;
  expect(fx.secrets.filter((s) => seen.includes(s))).toEqual([]);
}

describe("a file holding secret values, read and written back", () => {
  test("write_file with exactly the text read_file showed (markers, no CR): the file's bytes are unchanged", async () => {
    const fx = fixture();
    const job = await run(fx, [read, (input) => ({ name: "write_file", arguments: { path: "src/config.js", content: shown(input) } })]);
    const text = shown(job.requests.at(-1)!.body.input);
    expect(text).toContain('apiToken: "[redacted .env]"');
    expect(text).toContain('password: "[redacted .env]"');
    expect(text).toContain('github: "[redacted GITHUB_TOKEN]"');
    expect(outputOf(job, "write_file", () => true)).toBe("No change to src/config.js");
    expect(fx.file("src/config.js")).toEqual(Buffer.from(fx.config));
    expectNoValueShown(fx, job);
  }, 30_000);

  test("write_file with a line changed next to the secrets: the change lands, every secret's bytes stay", async () => {
    const fx = fixture();
    const job = await run(fx, [read, (input) => ({ name: "write_file", arguments: { path: "src/config.js", content: shown(input).replace("retries: 3", "retries: 5").replace("// from .env", "// from .env (rotated)") } })]);
    expect(outputOf(job, "write_file", () => true)).toBe("Updated src/config.js: +2 −2 lines");
    expect(fx.file("src/config.js")).toEqual(Buffer.from(fx.config.replace("retries: 3", "retries: 5").replace("// from .env", "// from .env (rotated)")));
    expectNoValueShown(fx, job);
  }, 30_000);

  test("edit_file whose old_string and new_string hold markers: the edit lands beside the secrets, their bytes kept", async () => {
    const fx = fixture();
    const edit = (input: any[]): PlannedCall => {
      const lines = shown(input).split("\n");
      const at = lines.findIndex((l) => l.includes("password:"));
      const old = lines.slice(at, at + 2).join("\n");
      return { name: "edit_file", arguments: { path: "src/config.js", old_string: old, new_string: old.replace('user: "app"', 'user: "service"').replace("fallbackToken", "backupToken") } };
    };
    const job = await run(fx, [read, edit]);
    expect(outputOf(job, "edit_file", () => true)).toBe("Edited src/config.js: +2 −2 lines");
    expect(fx.file("src/config.js")).toEqual(Buffer.from(fx.config.replace('user: "app"', 'user: "service"').replace("fallbackToken", "backupToken")));
    expectNoValueShown(fx, job);
  }, 30_000);

  test("apply_patch with secrets in context and removed lines: the change lands, the secrets' bytes kept", async () => {
    const fx = fixture();
    const patch = (input: any[]): PlannedCall => {
      const lines = shown(input).split("\n");
      const at = lines.findIndex((l) => l.includes("apiToken:"));
      const [token, db, fallback, github, retries] = lines.slice(at, at + 5);
      const hunk = [` ${token}`, `-${db}`, `+${db!.replace("db:", "database:")}`, ` ${fallback}`, ` ${github}`, `-${retries}`, "+  retries: 4,"];
      return { name: "apply_patch", arguments: { patch: ["*** Begin Patch", "*** Update File: src/config.js", ...hunk, "*** End Patch"].join("\n") } };
    };
    const job = await run(fx, [read, patch]);
    expect(outputOf(job, "apply_patch", () => true)).toBe("Applied patch:\nM src/config.js (+2 −2 lines)");
    expect(fx.file("src/config.js")).toEqual(Buffer.from(fx.config.replace("  db:", "  database:").replace("retries: 3", "retries: 4")));
    expectNoValueShown(fx, job);
  }, 30_000);
});

describe("a marker the target file does not hold is refused, nothing written", () => {
  test("in a new file (write_file, apply_patch's Add File) and in a file without that secret (write_file, edit_file); an ordinary write still lands byte for byte", async () => {
    const fx = fixture();
    const copyLine = (input: any[]) => shown(input).split("\n").find((l) => l.includes("apiToken:")) ?? "";
    const plainBefore = fx.file("src/plain.js");
    const job = await run(fx, [
      read,
      (input) => [
        { name: "write_file", arguments: { path: "src/copy.js", content: `export const config = {\n${copyLine(input)}\n};\n` } },
        { name: "apply_patch", arguments: { patch: `*** Begin Patch\n*** Add File: src/added.js\n+${copyLine(input)}\n*** End Patch` } },
        { name: "write_file", arguments: { path: "src/plain.js", content: 'export const plain = "[redacted GITHUB_TOKEN]";\n' } },
        { name: "edit_file", arguments: { path: "src/plain.js", old_string: "true", new_string: '"[redacted .env]"' } },
      ],
      { name: "write_file", arguments: { path: "src/new.js", content: "// ünïcode ✓\r\nexport const n = 1;" } },
    ]);
    const refused = (file: string, marker: string, line: number) =>
      `The new text holds \`${marker}\` (line ${line}), a placeholder for a secret value ${file} does not hold; nothing was written. Write it without the placeholder (edit around the secret: use edit_file on the lines that do not hold it).`;
    expect(outputOf(job, "write_file", (a) => a.path === "src/copy.js")).toBe(refused("src/copy.js", "[redacted .env]", 2));
    expect(outputOf(job, "apply_patch", () => true)).toBe(
      `The patch was not applied; no file was changed.\nAdd File src/added.js: ${refused("src/added.js", "[redacted .env]", 1)}\nRead the files again and resend the whole patch with corrected hunks.`,
    );
    expect(outputOf(job, "write_file", (a) => a.path === "src/plain.js")).toBe(refused("src/plain.js", "[redacted GITHUB_TOKEN]", 1));
    expect(outputOf(job, "edit_file", () => true)).toBe(refused("src/plain.js", "[redacted .env]", 1));
    expect([existsSync(join(fx.root, "src/copy.js")), existsSync(join(fx.root, "src/added.js"))]).toEqual([false, false]);
    expect(fx.file("src/plain.js")).toEqual(plainBefore);
    // The control: a write with no marker lands as given.
    expect(outputOf(job, "write_file", (a) => a.path === "src/new.js")).toBe("Created src/new.js (2 lines)");
    expect(fx.file("src/new.js")).toEqual(Buffer.from("// ünïcode ✓\r\nexport const n = 1;"));
    expect(fx.file("src/config.js")).toEqual(Buffer.from(fx.config));
    expectNoValueShown(fx, job);
  }, 30_000);
});
