/**
 * Issue 18: a command that fails for want of network gets one line in its result saying so, and who
 * can give it. --yolo alone gives no network (the listener hears nothing, the model reads the line);
 * --network does (the listener hears the call, and there is no line).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const LINE = "It ran without network, which only a person can give";
let heard = 0;
let listener: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  listener = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      heard++;
      return new Response("reached-listener");
    },
  });
});
afterAll(() => listener.stop(true));

const project = () => {
  const root = tempDir("offline");
  writeFileSync(join(root, "README"), "hello\n");
  return root;
};
const curl = () => [{ name: "bash", arguments: { command: `curl -sS --max-time 5 http://127.0.0.1:${listener.port}/` } }];

describe.skipIf(!Bun.which("curl") || !toolHere("bwrap", await Bun.file("/usr/bin/bwrap").exists()))("a command that wanted the network", () => {
  test("under --yolo alone it gets none: the listener hears nothing and the model reads one line saying who can give it", async () => {
    heard = 0;
    const job = await scriptedJob(curl(), { cwd: project(), args: ["--yolo"] });
    expect(heard).toBe(0);
    const sent = job.outputs[0]!.output;
    expect(sent).not.toContain("reached-listener");
    expect(sent.split("\n").filter((l) => l.startsWith(LINE))).toHaveLength(1);
    expect(sent).toContain("--network");
  });

  test("with --network it reaches the listener, and there is no line", async () => {
    heard = 0;
    const job = await scriptedJob(curl(), { cwd: project(), args: ["--yolo", "--network"] });
    expect(heard).toBe(1);
    expect(job.outputs[0]!.output).toStartWith("reached-listener");
    expect(job.outputs[0]!.output).not.toContain(LINE);
  });
});
