/**
 * Issue 31: a hard link to a secret, made before the run under a name that is no secret's
 * (`hardlink.txt` → `.env`, in test/support/dotfile-home.ts), is the secret by what it is: masked from
 * commands and refused to the file tools on both backends, in print mode's default and under --yolo,
 * so no transformation of its bytes (base64, sed) brings a byte of it to any request. The control in
 * each run: an ordinary project file read the same ways arrives whole.
 */
import { expect } from "bun:test";
import { eachBackend } from "../../support/attack-layout.ts";
import { dotfileHome } from "../../support/dotfile-home.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const tool = (name: string, args: Record<string, unknown>): PlannedCall => ({ name, arguments: args });

/** What reached the model, decoded every way the commands below encode: base64 runs, and `&_` interleaving undone. */
function decoded(raw: string): string {
  const unescaped = raw.replace(/\\n/g, "\n");
  const base64 = [...unescaped.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((m) => Buffer.from(m[0], "base64").toString("latin1"));
  return [raw, unescaped.replace(/(.)_/g, "$1"), ...base64].join("\n");
}

for (const [mode, args] of [["print mode's default", []], ["--yolo", ["--yolo"]]] as const) {
  eachBackend(`${mode}: a hard link to .env read through base64, sed, cat, read_file and grep gives no byte of it; readme.txt does`, async (backend) => {
    const fx = dotfileHome();
    const calls = [
      bash("base64 hardlink.txt; sed 's/./&_/g' hardlink.txt; cat hardlink.txt; true"),
      bash("base64 readme.txt; sed 's/./&_/g' readme.txt"),
      tool("read_file", { path: "hardlink.txt" }),
      tool("grep", { pattern: "API_KEY" }),
      tool("read_file", { path: "readme.txt" }),
    ];
    const job = await scriptedJob(calls, { cwd: fx.root, home: fx.layout.home, args: [...args], env: { ...fx.env, ...backend } });
    const sent = job.requests.map((r) => decoded(r.raw)).join("\n");
    expect(fx.leaked(sent).filter((k) => k === ".env")).toEqual([]);
    expect(fx.leaked(job.stdout + job.stderr).filter((k) => k === ".env")).toEqual([]);
    expect(job.outputs[1]!.output).toContain(Buffer.from("seen: an ordinary project file\n").toString("base64"));
    expect(job.outputs[1]!.output).toContain("s_e_e_n_:_");
    expect(job.outputs[2]!.output).toContain("hard link to the secret file .env");
    expect(job.outputs[4]!.output).toContain("seen: an ordinary project file");
  });
}
