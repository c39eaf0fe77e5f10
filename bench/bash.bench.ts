import { closeSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { FS, fsRights, landlockAbi } from "../src/sandbox/landlock-syscalls.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs } from "./median.ts";
import { createSandbox } from "../src/sandbox/create-sandbox.ts";
import { bash } from "../src/tools/shell/bash.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import { toolEnv } from "../src/secrets/tool-env.ts";

const RUNS = 60;

/**
 * What one `bash` tool call costs on its own: spawn, shell, `true`, drain, exit — bare, and in
 * the sandbox at both levels (bwrap, and the project scanned for secrets before and, writable, after).
 * The project is this repository's size: ~400 folders, ~8,000 files, a few secrets.
 */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-bash-"));
  for (let d = 0; d < 400; d++) {
    mkdirSync(join(root, `pkg${d}`));
    for (let f = 0; f < 20; f++) writeFileSync(join(root, `pkg${d}`, `f${f}.ts`), "");
  }
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  writeFileSync(join(root, "pkg3", "server.pem"), "x");
  // An empty HOME: the figure is shiro's cost, not what the home of whoever runs the bench holds.
  const home = process.env.HOME;
  process.env.HOME = root;
  try {
    const base: ToolContext = { root, signal: new AbortController().signal, env: toolEnv(process.env).env };
    const lines = [`bash tool call (\`true\`, empty HOME): median ${(await medianMs(RUNS, () => bash.run({ command: "true" }, base))).toFixed(2)} ms over ${RUNS} runs`];
    const sandbox = createSandbox({ mode: "workspace-write", network: "on", home: root, shiroHome: join(root, "none"), warn: () => {} });
    if (!(await sandbox.canConfine())) return [...lines, "sandboxed: no sandbox on this machine"];
    for (const level of ["read-only", "workspace-write"] as const) {
      const ctx = { ...base, sandbox: await sandbox.at({ level, byPerson: false }) };
      lines.push(`  in the sandbox, ${level}: median ${(await medianMs(RUNS, () => bash.run({ command: "true" }, ctx))).toFixed(2)} ms`);
    }
    lines.push(...(await sharedNetworkLines(base, root)));
    if (landlockAbi() > 0) {
      lines.push(`  Landlock's launcher (dist/shiro __landlock, then /bin/true), what Landlock adds to a bare call: median ${(await launcherMs()).toFixed(2)} ms`);
      lines.push(`  the same behind the gate (the launcher starts shiro __gate-exec, which installs the filter): median ${(await launcherMs(true)).toFixed(2)} ms`);
    }
    return lines;
  } finally {
    process.env.HOME = home;
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Issue 35: offline, once a background job has started, each command enters the session's network
 * namespace (nsenter before bwrap) instead of bwrap making one of its own: the call before and after.
 */
async function sharedNetworkLines(base: ToolContext, root: string): Promise<string[]> {
  const offline = createSandbox({ mode: "workspace-write", network: "off", home: root, shiroHome: join(root, "none"), warn: () => {} });
  const ctx = { ...base, sandbox: await offline.at({ level: "read-only", byPerson: false }) };
  const own = await medianMs(RUNS, () => bash.run({ command: "true" }, ctx));
  const unshared = await ctx.sandbox.shareNetwork?.();
  if (unshared) return [`  offline, the session's network namespace: not made (${unshared})`];
  const joined = await medianMs(RUNS, () => bash.run({ command: "true" }, ctx));
  return [`  offline read-only, a network namespace of its own: median ${own.toFixed(2)} ms; entering the session's (after a background job): median ${joined.toFixed(2)} ms`];
}

/** The compiled binary as Landlock's launcher, timed alone: from the sources it would be `bun src/main.ts`, far slower than what ships. */
async function launcherMs(gated = false): Promise<number> {
  ensureBinary();
  const abi = landlockAbi();
  const read = String(FS.EXECUTE | FS.READ_FILE | FS.READ_DIR);
  const gate = { secrets: [], masked: [], readOnly: [], level: "read-only", offline: true, shm: "/tmp", sockets: [] };
  const rules = ["/usr", "/bin", "/lib", "/lib64", "/etc", "/proc", "/dev", BINARY].map((path) => ({ path, access: path === BINARY ? String(FS.EXECUTE | FS.READ_FILE) : read }));
  const plan = JSON.stringify({ abi, handledFs: String(fsRights(abi)), handledNet: "0", scoped: "0", rules, argv: ["/bin/true"], setenv: {}, cwd: "/", ...(gated ? { gate } : {}) });
  return medianMs(RUNS, async () => {
    const proc = Bun.spawn([BINARY, "__landlock"], { stdio: ["ignore", "ignore", "inherit", "ignore", "pipe"] });
    writeSync(proc.stdio[4] as number, plan);
    closeSync(proc.stdio[4] as number);
    await proc.exited;
  });
}
