/**
 * Issue 12: a write is judged by its path, then the path is opened — in between, a process in the
 * project (a background job the model started) can swap a folder for a symlink. Here a separate
 * process swaps `sub` between a real folder and a link to a .ssh folder while shiro --yolo writes,
 * edits, patches and deletes `sub/authorized_keys` 200 times: the file the link leads to must never
 * change, and every call either changed the project's file or was refused. Two targets: a temp home's
 * .ssh outside the project (the write sees it leaves the project) and a .ssh folder inside it (the
 * guard, asked again where the write lands, sees a secret).
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const TRIES = 200;
const FILE = "sub/authorized_keys";
// Every call below would change this file if it reached it: mark-A is what edit_file replaces.
const KEYS = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOWNER owner@laptop mark-A\n";
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const CYCLE: PlannedCall[] = [
  { name: "write_file", arguments: { path: FILE, content: "ssh-ed25519 ATTACKER mark-A\n" } },
  { name: "edit_file", arguments: { path: FILE, old_string: "mark-A", new_string: "mark-B" } },
  { name: "apply_patch", arguments: { patch: patch(`*** Update File: ${FILE}`, "-ssh-ed25519 ATTACKER mark-B", "+ssh-ed25519 ATTACKER mark-C") } },
  { name: "apply_patch", arguments: { patch: patch(`*** Delete File: ${FILE}`) } },
];
const CHANGED = /^(Created|Updated|Edited|No change to) sub\/authorized_keys|^Applied patch:\n[MD] sub\/authorized_keys/;
const IN_PATCH = "(The patch was not applied; no file was changed\\.\\n(Update|Delete) File sub/authorized_keys: )?";
// Refused once open: the link was swapped in after the call was judged.
const AT_OPEN = {
  outside: new RegExp(`^${IN_PATCH}sub/authorized_keys leads outside the project: sub is a link to `),
  inside: new RegExp(`^${IN_PATCH}sub/authorized_keys leads to keys/\\.ssh/authorized_keys, which may not be written: guard: secret file `),
};
// Refused before running (the guard saw the link), or by the state the race left the file in.
const REFUSED = [
  /^Denied: (guard: secret file|permission rule deny) /,
  new RegExp(`^${IN_PATCH}sub/authorized_keys was changed by something else meanwhile`),
  /^File not found: sub\/authorized_keys/,
  /^old_string was not found in sub\/authorized_keys/,
  /^The patch was not applied; no file was changed\.\n(Update|Delete) File sub\/authorized_keys: (the file does not exist|hunk 1 did not match)/,
];

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

for (const where of ["outside", "inside"] as const) {
  test(`${TRIES} writes, edits and patches racing a folder swapped for a link to a .ssh ${where} the project never touch it`, async () => {
    base = tempDir("race");
    const root = join(base, "project");
    const ssh = where === "outside" ? join(base, "home/.ssh") : join(root, "keys/.ssh");
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(ssh, { recursive: true });
    writeFileSync(join(ssh, "authorized_keys"), KEYS);
    writeFileSync(join(root, FILE), "ssh-ed25519 PROJECT mark-A\n");
    const calls = Array.from({ length: TRIES }, (_, i) => CYCLE[i % CYCLE.length]!);
    // Ten calls a step: the race is in each call, not in the model's turns.
    const steps = Array.from({ length: TRIES / 10 }, (_, i) => calls.slice(i * 10, i * 10 + 10));

    const link = where === "outside" ? ssh : "keys/.ssh";
    const swapper = Bun.spawn([process.execPath, join(import.meta.dir, "../../support/swap-loop.ts"), join(root, "sub"), link], { stdout: "pipe" });
    let outputs: string[];
    try {
      await swapper.stdout.getReader().read(); // "ready"
      const job = await scriptedJob(steps, { cwd: root, home: join(base, "home"), args: ["--yolo", "--max-steps", String(steps.length + 5)] });
      outputs = job.outputs.map((o) => o.output);
    } finally {
      swapper.kill("SIGKILL");
      await swapper.exited;
    }
    expect(readdirSync(ssh)).toEqual(["authorized_keys"]);
    expect(readFileSync(join(ssh, "authorized_keys"), "utf8")).toBe(KEYS);
    expect(outputs.length).toBe(TRIES);
    const refusedAtOpen = outputs.filter((out) => AT_OPEN[where].test(out));
    const unexplained = outputs.filter((out) => !CHANGED.test(out) && !AT_OPEN[where].test(out) && !REFUSED.some((r) => r.test(out)));
    expect(unexplained).toEqual([]);
    // The race was run, not dodged: some calls changed the file, and some met the link only once open.
    expect(outputs.filter((out) => CHANGED.test(out)).length).toBeGreaterThan(0);
    expect(refusedAtOpen.length).toBeGreaterThan(0);
    // No temp file of a refused write is left behind in the project either.
    expect(readdirSync(root, { recursive: true }).filter((name) => String(name).endsWith(".tmp"))).toEqual([]);
  });
}
