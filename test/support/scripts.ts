/**
 * Reusable scripted models for the strict server. Each decides only from the request it is given,
 * like a real model: work whose result is not visible in the input gets done (again).
 */
import { canonicalJson } from "./canonical-json.ts";
import type { ScriptedModel } from "./turn.ts";

export type PlannedCall = { name: string; arguments: Record<string, unknown> };
/** One call, a group of parallel calls, or either worked out from the visible input. */
export type Step = PlannedCall | PlannedCall[] | ((input: any[]) => PlannedCall | PlannedCall[]);

export type VisibleOutput = { callId: string; name: string; arguments: unknown; output: string };

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: any) => p?.text ?? "").join("") : "";

const parseArgs = (args: string): unknown => {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
};

/** The calls in the input that have an output, with their parsed arguments and output text. */
export function visibleOutputs(input: any[]): VisibleOutput[] {
  const outputs = new Map<string, string>();
  for (const item of input) if (item?.type === "function_call_output") outputs.set(item.call_id, textOf(item.output));
  return input
    .filter((item) => item?.type === "function_call" && outputs.has(item.call_id))
    .map((item) => ({ callId: item.call_id, name: item.name, arguments: parseArgs(item.arguments), output: outputs.get(item.call_id)! }));
}

const userTexts = (input: any[]) => input.filter((it) => it?.type === "message" && it.role === "user").map((it) => textOf(it.content));
export const firstUserText = (input: any[]): string => userTexts(input)[0] ?? "";
export const lastUserText = (input: any[]): string => userTexts(input).at(-1) ?? "";

/** Answers with the last user text, prefixed; the server's default model. */
export const echoModel: ScriptedModel = (req) => ({ text: `You said: ${lastUserText(req.input)}` });

/**
 * Works through `steps` in order, issuing the first step's calls whose outputs are not visible
 * (matched by name + arguments, each visible output used once); answers `finalText` when all are.
 */
export function sequenceModel(steps: Step[], finalText: string | ((input: any[]) => string)): ScriptedModel {
  return ({ input }) => {
    const unused = new Map<string, number>();
    for (const seen of visibleOutputs(input)) {
      const key = callKey(seen.name, seen.arguments);
      unused.set(key, (unused.get(key) ?? 0) + 1);
    }
    for (const step of steps) {
      const resolved = typeof step === "function" ? step(input) : step;
      const pending = (Array.isArray(resolved) ? resolved : [resolved]).filter((call) => {
        const key = callKey(call.name, call.arguments);
        const left = unused.get(key) ?? 0;
        if (left > 0) unused.set(key, left - 1);
        return left === 0;
      });
      if (pending.length > 0)
        return { reasoning: [`**Next step**\n\nCalling ${pending.map((c) => c.name).join(", ")}.`], calls: pending };
    }
    return { reasoning: ["**Done**\n\nEverything needed is in the conversation."], text: typeof finalText === "string" ? finalText : finalText(input) };
  };
}

const callKey = (name: string, args: unknown) => `${name}\u0000${canonicalJson(args)}`;

// Tool outputs may number their lines ("  1\tx", "1: x", "1→x") or bullet them; keep the text.
const entriesOf = (output: string) =>
  output
    .split("\n")
    .map((line) => line.replace(/^\s*\d+\s*[\t:|→]\s?/, "").replace(/^\s*(?:[-*]\s+)?(?:\[[ x]\]\s+)?/, "").trim())
    .filter((line) => line !== "");

const readOf = (input: any[], path: string) =>
  visibleOutputs(input).find((o) => o.name === "read_file" && (o.arguments as any)?.path === path)?.output ?? "";

const summaryOf = (input: any[]) => {
  const todo = entriesOf(readOf(input, "notes/todo.txt"));
  const done = entriesOf(readOf(input, "notes/done.txt"));
  const list = (items: string[]) => items.map((item) => `- ${item}`).join("\n");
  return `# Notes summary\n\n## To do (${todo.length})\n${list(todo)}\n\n## Done (${done.length})\n${list(done)}\n`;
};

/** The demo job: find the notes, read two of them, write a summary derived from what was read, report. */
export const demoModel: ScriptedModel = sequenceModel(
  [
    { name: "glob", arguments: { pattern: "notes/*.txt" } },
    [
      { name: "read_file", arguments: { path: "notes/todo.txt" } },
      { name: "read_file", arguments: { path: "notes/done.txt" } },
    ],
    (input) => ({ name: "write_file", arguments: { path: "notes/summary.md", content: summaryOf(input) } }),
  ],
  (input) => {
    const todo = entriesOf(readOf(input, "notes/todo.txt")).length;
    const done = entriesOf(readOf(input, "notes/done.txt")).length;
    return `I read notes/todo.txt (${todo} open) and notes/done.txt (${done} done) and wrote notes/summary.md listing both.`;
  },
);

/** For trying the REPL by hand: runs each prompt as a bash command, then says how it went. */
export const shellModel: ScriptedModel = ({ input }) => {
  const last = input.at(-1);
  if (last?.type !== "function_call_output") return { calls: [{ name: "bash", arguments: { command: lastUserText(input) } }] };
  const output = String(last.output);
  return { text: `The command printed ${output.split("\n").length} lines; the last one: ${output.trim().split("\n").at(-1)}` };
};

/** Calls made so far: those on the wire and those a compaction note lists as left out. */
const callsMade = (input: any[]) =>
  input.filter((item) => item?.type === "function_call").length +
  userTexts(input).filter((t) => t.startsWith("[shiro: ")).reduce((n, t) => n + t.split("\n").filter((l) => l.startsWith("- ") && !l.startsWith("- said: ")).length, 0);

/** Makes `n` calls, one per step (`call(i)` for the i-th), then answers: a job of n + 1 model calls, however long. */
export const callingModel =
  (n: number, call: (i: number) => PlannedCall, finalText = "done"): ScriptedModel =>
  ({ input }) => {
    const made = callsMade(input);
    return made < n ? { reasoning: ["**Next step**\n\nOne more call."], calls: [call(made)] } : { text: finalText };
  };
