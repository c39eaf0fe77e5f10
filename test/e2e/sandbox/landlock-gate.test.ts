/**
 * The Landlock gate (src/sandbox/gate/) against what a hostile command can do, on the simulated
 * 24.04 runner under --yolo: race a symlink or the path's own memory between the check and the open,
 * reach the gate through /proc, hand it a FIFO that would stall it. Each beside the honest form of
 * the same thing (a pipe, process substitution, /dev/stdin, a file of the project read back).
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_USERNS, simulationHere } from "../../support/no-userns.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const simulated = simulationHere();
const SECRET = "gaterace-secret-4b7e21";
const PY = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

function project() {
  const home = tempDir("gate-attack");
  const root = join(home, "code/proj");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, ".env"), `API_TOKEN=${SECRET}\n`);
  writeFileSync(join(root, "README.md"), "# an ordinary file\n");
  Bun.spawnSync(["git", "init", "-q"], { cwd: root });
  return { home, root };
}

// Two threads: one flips a symlink between README.md and .env, the other opens it and prints what it read.
const SYMLINK_RACE = `
import os, threading
stop = False
def flip():
    while not stop:
        for target in ("README.md", ".e" + "nv"):
            try:
                os.symlink(target, "l.tmp"); os.rename("l.tmp", "l")
            except OSError: pass
t = threading.Thread(target=flip); t.start()
seen = set()
for _ in range(3000):
    try:
        with open("l") as f: seen.add(f.read().strip())
    except OSError as e: seen.add(type(e).__name__)
stop = True; t.join()
print(sorted(seen))
`;
// Two threads: one rewrites the path buffer between "README.md" and ".env", the other opens through it.
const MEMORY_RACE = `
import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(b"README.md", 32)
stop = False
def flip():
    while not stop:
        ctypes.memmove(buf, b".e" + b"nv\\0\\0\\0\\0\\0\\0", 10)
        ctypes.memmove(buf, b"README.md\\0", 10)
t = threading.Thread(target=flip); t.start()
seen = set()
for _ in range(5000):
    fd = libc.open(buf, os.O_RDONLY)
    if fd >= 0:
        seen.add(os.read(fd, 100).decode(errors="replace").strip()); os.close(fd)
stop = True; t.join()
print(sorted(seen))
`;

test.skipIf(!simulated)("a symlink flipped and the path's own memory rewritten between check and open: .env is never read, README.md always is", async () => {
  const p = project();
  writeFileSync(join(p.root, "race1.py"), SYMLINK_RACE);
  writeFileSync(join(p.root, "race2.py"), MEMORY_RACE);
  const job = await scriptedJob([bash(`${PY} race1.py`), bash(`${PY} race2.py`)], { cwd: p.root, home: p.home, args: ["--yolo"], wrap: NO_USERNS });
  const [symlink, memory] = job.outputs.map((o) => o.output);
  expect(symlink).toContain("# an ordinary file");
  expect(memory).toContain("# an ordinary file");
  expect(job.requests.some((r) => r.raw.includes(SECRET))).toBe(false);
});

test.skipIf(!simulated)("the gate's own process is out of reach through /proc; the command's own /proc/self, /dev/stdin and process substitution work", async () => {
  const p = project();
  const calls = [
    bash("cat /proc/$PPID/environ; cat /proc/$PPID/mem | head -c 16 | od -c; echo x > /proc/$PPID/mem; echo done"),
    bash("exec 3<README.md; cat /proc/self/fd/3; cat /dev/stdin < README.md; diff <(echo same) <(echo same) && echo substituted; echo kept > out.txt; cat /proc/self/cwd/out.txt"),
  ];
  const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"], wrap: NO_USERNS });
  const [gate, own] = job.outputs.map((o) => o.output);
  expect(gate).toMatch(/environ: Permission denied[\s\S]*mem: Permission denied/);
  expect(own).toBe("# an ordinary file\n# an ordinary file\nsubstituted\nkept\n\nExit code: 0");
});

test.skipIf(!simulated)("named pipes: a reader waiting for its writer and a writer for its reader both get through; the gate keeps answering meanwhile", async () => {
  const p = project();
  const calls = [bash("mkfifo p q; (echo via-fifo > p &); cat p; (sleep 0.3; echo late > q) & cat q; wait; cat README.md")];
  const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"], wrap: NO_USERNS });
  expect(job.outputs[0]!.output).toBe("via-fifo\nlate\n# an ordinary file\n\nExit code: 0");
});
