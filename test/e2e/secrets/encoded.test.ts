/**
 * Issue 30: a secret value printed encoded gets no further than printed as is. `.env` holds the value
 * (so shiro knows it); `notes.txt`, a file no name protects, holds the same bytes, and commands print
 * them base64-encoded (standard, URL-safe, at each alignment inside a longer stream, wrapped at 76),
 * as hex (`xxd -p`, upper case, wrapped, `od`) and percent-encoded (Python's `quote`, `quote_plus`).
 * Every tool output of every request, decoded every way, holds no trace of the value; the control —
 * the same commands on an ordinary file — arrives exactly as the command printed it, and decodes back.
 * On both sandbox backends.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodedEverywhere } from "../../support/decoded-everywhere.ts";
import { simulationHolds } from "../../support/no-userns.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { visibleOutputs, type PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
// The system's Python: a runner's own (pyenv's shims in a home) is out of a sandboxed command's reach.
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const quote = (fn: string, file: string) => bash(`${PYTHON} -c "import urllib.parse; print(urllib.parse.${fn}(open('${file}').read(), safe=''))"`);

/**
 * The value: six `~` make a `+` in its base64 at any alignment (three of them meet a group whole: `fn5+`),
 * so the URL-safe form differs; `/`, `?`, `&`, `=` make its URL form differ.
 */
const secretValue = () => `S3cret/~~~~~~${randomBytes(12).toString("hex")}?&=x`;

// Each as `file` holds it: the secret's copy, then the ordinary file.
const ENCODERS = (file: string) => [
  bash(`base64 ${file}`),
  bash(`(printf x; cat ${file}) | base64 -w0`),
  bash(`(head -c 50 /dev/zero | tr '\\0' y; cat ${file}; echo tail) | base64`),
  bash(`base64 -w0 ${file} | tr '+/' '-_'`),
  bash(`xxd -p ${file}`),
  bash(`(printf 'padding-padding-padding-'; cat ${file}) | xxd -p -u`),
  bash(`od -An -tx1 ${file}`),
  quote("quote", file),
  quote("quote_plus", file),
];

describe("a secret printed encoded is redacted in every form", () => {
  for (const backend of RUNNER_BACKENDS)
    test.skipIf(!backend.runs)(`base64, hex and URL-encoded by commands, unapproved in print mode (${backend.name})`, async () => {
      if (backend.wrap.length) expect(simulationHolds()).toBeUndefined();
      const cwd = tempDir("encoded-ws");
      const secret = secretValue();
      const ordinary = "an ordinary file: nothing secret in it, 42 + 0.5 = 42.5?\n";
      writeFileSync(join(cwd, ".env"), `API_KEY=${secret}\n`);
      writeFileSync(join(cwd, "notes.txt"), `${secret}\n`);
      writeFileSync(join(cwd, "readme.txt"), ordinary);
      const calls = [...ENCODERS("notes.txt"), ...ENCODERS("readme.txt")];
      const job = await scriptedJob(calls, { cwd, args: ["--json", "--max-steps", "30"], env: {}, wrap: backend.wrap });
      expect(job.code).toBe(0);
      expect(job.outputs).toHaveLength(calls.length);

      // The control: the ordinary file's encodings arrive as printed, and the checker below finds the text in them.
      const control = (command: string) => outputOf(job, "bash", (a) => a.command === command);
      expect(control("base64 readme.txt")).toStartWith(Buffer.from(ordinary).toString("base64").replace(/(.{76})/g, "$1\n"));
      expect(control("xxd -p readme.txt")).toStartWith(Buffer.from(ordinary).toString("hex").replace(/(.{60})/g, "$1\n"));
      for (const call of ENCODERS("readme.txt")) {
        const shown = control(call.arguments.command as string);
        expect(shown).not.toContain("[redacted");
        expect(decodedEverywhere(shown)).toContain("nothing secret in it");
      }

      // The secret's: each command's output says what was redacted, and no request holds the value in any form.
      for (const call of ENCODERS("notes.txt")) expect(control(call.arguments.command as string)).toMatch(/\[redacted \.env \((base64|hex|url-encoded)\)\]/);
      const everything = job.requests.flatMap((q) => [q.raw, ...visibleOutputs(q.body.input).map((o) => o.output)]);
      expect(everything.filter((text) => decodedEverywhere(text).includes(secret.slice(0, 20))).length).toBe(0);
      expect(decodedEverywhere(job.stdout).includes(secret.slice(0, 20))).toBe(false);
    });
});
