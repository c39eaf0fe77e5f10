/**
 * The read side of write-race.test.ts: read_file is judged by its path, then the file is opened — in
 * between, a process in the project can swap a folder for a link to a .ssh folder. A separate process
 * swaps `sub` while shiro reads `sub/notes.txt` 200 times: no byte of the key may reach the model, and
 * every read either returned the project's file or was refused. Two targets: a temp home's .ssh
 * outside the project, and a .ssh folder inside it.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const TRIES = 200;
const KEY_MARK = "PRIVATEKEYBYTES7f3a";
const PROJECT_TEXT = "the project's own notes\n";
const READ: PlannedCall = { name: "read_file", arguments: { path: "sub/notes.txt" } };
const READ_PROJECT = /^ +1\tthe project's own notes\n$/;
// Refused once open: the link was swapped in after the call was judged.
const AT_OPEN = /^sub\/notes\.txt leads to .*\.ssh\/notes\.txt, which may not be read: /;
// Refused before running (the guard saw the link), or met mid-swap (no sub at that instant).
const REFUSED = [/^Denied: (guard: secret file|permission rule deny) /, /^File not found: sub\/notes\.txt/, /^sub\/notes\.txt was changed by something else meanwhile/];

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

for (const where of ["outside", "inside"] as const) {
  test(`${TRIES} reads racing a folder swapped for a link to a .ssh ${where} the project never send the key`, async () => {
    base = tempDir("read-race");
    const root = join(base, "project");
    const ssh = where === "outside" ? join(base, "home/.ssh") : join(root, "keys/.ssh");
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(ssh, { recursive: true });
    writeFileSync(join(ssh, "notes.txt"), `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_MARK}\n`);
    writeFileSync(join(root, "sub/notes.txt"), PROJECT_TEXT);
    // Ten calls a step: the race is in each call, not in the model's turns.
    const steps = Array.from({ length: TRIES / 10 }, () => Array.from({ length: 10 }, () => READ));

    const link = where === "outside" ? ssh : "keys/.ssh";
    const swapper = Bun.spawn([process.execPath, join(import.meta.dir, "../../support/swap-loop.ts"), join(root, "sub"), link], { stdout: "pipe" });
    let job: Awaited<ReturnType<typeof scriptedJob>>;
    try {
      await swapper.stdout.getReader().read(); // "ready"
      job = await scriptedJob(steps, { cwd: root, home: join(base, "home"), args: ["--max-steps", String(steps.length + 5)] });
    } finally {
      swapper.kill("SIGKILL");
      await swapper.exited;
    }
    expect(job.requests.some((req) => JSON.stringify(req.body).includes(KEY_MARK))).toBe(false);
    expect(`${job.stdout}${job.stderr}`).not.toContain(KEY_MARK);
    const outputs = job.outputs.map((o) => o.output);
    expect(outputs.length).toBe(TRIES);
    const unexplained = outputs.filter((out) => !READ_PROJECT.test(out) && !AT_OPEN.test(out) && !REFUSED.some((r) => r.test(out)));
    expect(unexplained).toEqual([]);
    // The race was run, not dodged: some reads got the project's file, and some met the link only once open.
    expect(outputs.filter((out) => READ_PROJECT.test(out)).length).toBeGreaterThan(0);
    expect(outputs.filter((out) => AT_OPEN.test(out)).length).toBeGreaterThan(0);
  });
}
