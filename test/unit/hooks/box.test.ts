/**
 * Where a hook runs (issue 31): in the sandbox, writable only for PostToolUse; outside only when the
 * person's own config says `"sandbox": false`. A project's hooks — its settings, a `--hooks` file in
 * the project or an added folder — never leave the box, their `"sandbox": false` ignored in one line;
 * a `--hooks` file elsewhere is the person's. The e2e side is test/e2e/hooks-in-box*.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configFileSchema } from "../../../src/cli/config.ts";
import { hookLevel, prepareHook, type HookSandbox } from "../../../src/hooks/hook-box.ts";
import type { HookDefinition } from "../../../src/hooks/hook-config.ts";
import { loadHooks } from "../../../src/hooks/load-hooks.ts";
import type { Approvals } from "../../../src/store/approvals.ts";
import { ToolError } from "../../../src/tools/tool.ts";
import type { CommandSandbox } from "../../../src/process/prepared-command.ts";
import { tempDir } from "../../support/run-shiro.ts";

const entry = (command: string, sandbox?: boolean) => ({ type: "command" as const, command, ...(sandbox === undefined ? {} : { sandbox }) });
const file = (...hooks: ReturnType<typeof entry>[]) => JSON.stringify({ hooks: { PostToolUse: [{ hooks }] } });
const approvals = (approved: boolean): (() => Promise<Approvals>) => async () => ({ has: () => approved, add: async () => {} });
const where = (defs: readonly HookDefinition[]) => defs.map((d) => [d.source, d.command, d.outside ? "outside" : "box", d.project ? "project" : "person"]);

function layout() {
  const root = realpathSync(tempDir("hooks-box"));
  const elsewhere = realpathSync(tempDir("hooks-box-own"));
  const added = realpathSync(tempDir("hooks-box-added"));
  mkdirSync(join(root, ".shiro"));
  writeFileSync(join(root, ".shiro/settings.json"), file(entry("project-fmt", false), entry("project-lint")));
  writeFileSync(join(root, "ci-hooks.json"), file(entry("ci-fmt", false)));
  writeFileSync(join(added, "more.json"), file(entry("added-fmt", false)));
  writeFileSync(join(elsewhere, "mine.json"), file(entry("my-notify", false), entry("my-fmt")));
  return { root, elsewhere, added };
}

describe("loadHooks: whose a hook is, and whether it may leave the sandbox", () => {
  test('the person\'s config, notify and a --hooks file elsewhere keep "sandbox": false; the project\'s settings and --hooks files in its reach do not, said once each', async () => {
    const { root, elsewhere, added } = layout();
    const warned: string[] = [];
    const loaded = await loadHooks({
      config: { Stop: [{ hooks: [entry("my-stop", false), entry("my-boxed-stop")] }] },
      notify: [{ command: "notify-send out", sandbox: false }, "notify-send boxed"],
      files: [join(elsewhere, "mine.json"), join(root, "ci-hooks.json"), join(added, "more.json")],
      root,
      writable: [added],
      approvals: approvals(true),
      warn: (line) => warned.push(line),
    });
    expect(where(loaded.definitions)).toEqual([
      ["config.json", "my-stop", "outside", "person"],
      ["config.json", "my-boxed-stop", "box", "person"],
      ["notify", "notify-send out", "outside", "person"],
      ["notify", "notify-send out", "outside", "person"],
      ["notify", "notify-send boxed", "box", "person"],
      ["notify", "notify-send boxed", "box", "person"],
      [`--hooks ${join(elsewhere, "mine.json")}`, "my-notify", "outside", "person"],
      [`--hooks ${join(elsewhere, "mine.json")}`, "my-fmt", "box", "person"],
      [`--hooks ${join(root, "ci-hooks.json")}`, "ci-fmt", "box", "project"],
      [`--hooks ${join(added, "more.json")}`, "added-fmt", "box", "project"],
      [".shiro/settings.json", "project-fmt", "box", "project"],
      [".shiro/settings.json", "project-lint", "box", "project"],
    ]);
    expect(warned).toEqual([
      `--hooks ${join(root, "ci-hooks.json")}: "sandbox": false ignored on \`ci-fmt\`: a project's hooks always run in the sandbox`,
      `--hooks ${join(added, "more.json")}: "sandbox": false ignored on \`added-fmt\`: a project's hooks always run in the sandbox`,
      `.shiro/settings.json: "sandbox": false ignored on \`project-fmt\`: a project's hooks always run in the sandbox`,
    ]);
  });

  test("a project's hooks waiting for approval: shown with the ignored key, boxed once approved, no warning yet", async () => {
    const { root } = layout();
    const warned: string[] = [];
    const loaded = await loadHooks({ notify: [], files: [], root, writable: [], approvals: approvals(false), warn: (line) => warned.push(line) });
    expect(loaded.definitions).toEqual([]);
    expect(loaded.unapproved!.lines).toEqual(['  PostToolUse: project-fmt ("sandbox": false ignored)', "  PostToolUse: project-lint"]);
    expect(where(loaded.unapproved!.definitions)).toEqual([
      [".shiro/settings.json", "project-fmt", "box", "project"],
      [".shiro/settings.json", "project-lint", "box", "project"],
    ]);
    expect(warned).toEqual([]);
  });

  test("`sandbox` is a boolean on a hook and a notify entry; a typo is named", () => {
    const message = (value: unknown) => {
      const r = configFileSchema.safeParse(value);
      return r.success ? "" : r.error.issues.map((i) => i.message).join("; ");
    };
    expect(message({ hooks: { Stop: [{ hooks: [entry("x", false)] }] }, notify: ["a", { command: "b", sandbox: false }] })).toBe("");
    expect(message({ notify: [{ command: "b", sandbx: false }] })).toContain('did you mean "sandbox"?');
    expect(message({ hooks: { Stop: [{ hooks: [{ type: "command", command: "x", sandbox: "no" }] }] } })).not.toBe("");
  });
});

describe("prepareHook: where one run goes", () => {
  const def = (over: Partial<HookDefinition>): HookDefinition => ({ event: "PostToolUse", command: "make -s fmt", timeoutS: 60, onFailure: "block", source: "config.json", ...over });
  const argv = ["/bin/bash", "-c", "make -s fmt"];
  /** A sandbox that wraps the argv in `[box <level>]` and records each level asked for; `none` when absent. */
  function boxes(present = true, prepare?: CommandSandbox["prepare"]) {
    const levels: string[] = [];
    const sandbox: HookSandbox = async (level) => {
      levels.push(level);
      if (!present) return undefined;
      return { prepare: prepare ?? ((a) => ({ argv: [`[box ${level}]`, ...a], check: () => ({ notes: [], denied: false }) })) };
    };
    return { levels, sandbox };
  }

  test("PostToolUse may write the project; every other event's hooks only read", () => {
    expect(hookLevel("PostToolUse")).toBe("workspace-write");
    for (const event of ["PreToolUse", "UserPromptSubmit", "Stop", "SessionStart", "Notification"] as const) expect(hookLevel(event)).toBe("read-only");
  });

  test("in the box at its event's level; outside only when its definition says so (then the sandbox is not even asked)", async () => {
    const b = boxes();
    expect(await prepareHook(def({}), argv, "/p", b.sandbox)).toMatchObject({ argv: ["[box workspace-write]", ...argv] });
    expect(await prepareHook(def({ event: "Stop" }), argv, "/p", b.sandbox)).toMatchObject({ argv: ["[box read-only]", ...argv] });
    expect(await prepareHook(def({ event: "Notification", outside: true }), argv, "/p", b.sandbox)).toMatchObject({ argv });
    expect(b.levels).toEqual(["workspace-write", "read-only"]);
  });

  test("no sandbox in force: the person's hook runs bare, as commands then do; a project's does not run", async () => {
    const b = boxes(false);
    expect(await prepareHook(def({}), argv, "/p", b.sandbox)).toMatchObject({ argv });
    expect(await prepareHook(def({ project: true }), argv, "/p", b.sandbox)).toEqual({ why: "a project's hooks run only in the sandbox, and none is in force here" });
  });

  test("a sandbox that refuses to run anything (its program swapped) refuses the hook too, saying why", async () => {
    const b = boxes(true, () => {
      throw new ToolError("Not run: the sandbox program changed");
    });
    expect(await prepareHook(def({}), argv, "/p", b.sandbox)).toEqual({ why: "Not run: the sandbox program changed" });
  });
});
