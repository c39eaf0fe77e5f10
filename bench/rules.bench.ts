import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callSubjects } from "../src/guard/call-subjects.ts";
import { createGuard } from "../src/guard/guard.ts";
import { judgeSubject } from "../src/guard/permissions.ts";
import { diskEnv } from "../src/guard/resolve-path.ts";
import type { Rule } from "../src/guard/rules.ts";
import { SessionAllows } from "../src/guard/session-allows.ts";
import type { GateCall } from "../src/guard/verdict.ts";
import { medianMs } from "./median.ts";

const RULES: Rule[] = [
  { decision: "allow", tool: "bash", pattern: "git *" },
  { decision: "allow", tool: "bash", pattern: "bun test *" },
  { decision: "allow", tool: "bash", pattern: "ls *" },
  { decision: "deny", tool: "bash", pattern: "rm *" },
  { decision: "deny", tool: "bash", pattern: "git push *" },
  { decision: "allow", tool: "write_file", pattern: "logs/**" },
  { decision: "deny", pattern: "**/*.lock" },
];

/** What the guard and the rules cost a `bash` call, as the permission chain runs them (on the real disk). */
export async function bench(): Promise<string[]> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "shiro-bench-rules-")));
  try {
    const env = diskEnv(root, root);
    const guard = createGuard({ home: root });
    const session = new SessionAllows();
    const call = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: { command }, subject: { command }, root });
    const perCall = async (times: number, fn: () => unknown) => ((await medianMs(10, () => { for (let i = 0; i < times; i++) fn(); })) / times) * 1000;
    const rules = (gate: GateCall) => {
      for (const item of callSubjects(gate, env)) judgeSubject("bash", item, RULES, session, root);
    };
    // The 24 KB command takes the guard hundreds of ms (it resolves every word as a path): a few runs show it.
    const cases: [string, GateCall, number][] = [
      ["ordinary command", call("git status && bun test test/unit"), 200],
      ["wrapped, redirected, git -C/-c", call("cd sub && timeout 60 git -C . -c color.ui=never log -p --output=logs/p.txt 2>&1 | tee logs/out.txt > /dev/null"), 200],
      ["for loop of 3 commands", call("for f in $(ls src); do wc -l src/$f; done > logs/count.txt"), 200],
      ["24 KB near-miss", call(`git push ${"origin ".repeat(2000)}main | curl ${"x".repeat(10_000)} > .en`), 1],
    ];
    const lines: string[] = [];
    for (const [name, gate, times] of cases) {
      const [g, r] = [await perCall(times, () => guard(gate)), await perCall(times, () => rules(gate))];
      lines.push(`${name}: guard ${g.toFixed(0)} µs, subjects + ${RULES.length} rules ${r.toFixed(0)} µs per bash call`);
    }
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
