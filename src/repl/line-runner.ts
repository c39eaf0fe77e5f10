import type pc from "picocolors";
import type { CommandTurn } from "../commands/saved-commands.ts";
import { attachMentions } from "../context/attach-mentions.ts";
import { imagesNotTaken } from "../wire/image-input.ts";
import { showBeforePrompt } from "./commands.ts";
import { offerPlan } from "./plan-offer.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";
import { playTurn } from "./repl-turn.ts";
import type { SavedTable } from "./saved-commands-table.ts";
import { parseSlash, unknownCommandLine } from "./slash-commands.ts";
import type { WorkSlot } from "./work-slot.ts";

type Runner = {
  /** What commands reach, the agent at work now among it (/clear and /resume replace it). */
  ctx: ReplContext;
  slot: WorkSlot;
  cwd: string;
  /** The commands a `/` line may name: the built-in ones, then the saved ones. */
  table: () => ReplCommand[];
  saved: () => SavedTable | undefined;
  history: { add(line: string): Promise<string | undefined> };
  out: { write: (text: string) => void; observe: Parameters<typeof playTurn>[3]["observe"]; color: boolean };
  print: (text: string) => void;
  warn: (line: string) => void;
  c: ReturnType<typeof pc.createColors>;
  closed: () => boolean;
  /** Lines typed while the turn ran, waiting their turn. */
  queued: () => boolean;
  /** A yes/no whose no may be typed as a reply (person-questions.ts). */
  offer: (question: string) => Promise<boolean>;
};

/** One line the person typed, to its end: a slash command, or a prompt (its `@files` and images attached) run as a turn. */
export function createLineRunner(r: Runner) {
  async function runTurn(prompt: string, command?: CommandTurn): Promise<void> {
    await r.slot.withTurn((turn) => playTurn(turn, r.ctx.current.agent, prompt, r.out, command));
    if (r.closed()) return;
    await showBeforePrompt(r.ctx);
    await offerPlan({ agent: r.ctx.current.agent, queued: r.queued, ask: r.offer, print: (text) => r.print(r.c.dim(text)), run: (next) => runTurn(next) });
  }

  async function runLine(line: string, quiet: boolean): Promise<void | "exit"> {
    const unsaved = quiet ? undefined : await r.history.add(line);
    if (unsaved) r.warn(unsaved);
    if (line.trimStart().startsWith("/")) {
      await r.saved()?.refresh();
      const parsed = parseSlash(line, r.table());
      if (parsed.kind === "command") return r.slot.withCommand((signal) => parsed.command.run({ ...r.ctx, signal }, parsed.arg));
      return r.print(r.c.yellow(unknownCommandLine(parsed)));
    }
    const { text, images, attached, refused, missing, notices } = await attachMentions(line, r.cwd);
    if (attached.length) r.print(r.c.dim(`· attached ${attached.join(", ")}`));
    if (missing.length) r.print(r.c.dim(`· not a file, sent as text: ${missing.join(", ")}`));
    for (const why of refused) r.print(r.c.yellow(`! not attached: ${why}`));
    for (const notice of notices) r.print(r.c.yellow(`! ${notice}`));
    const notTaken = imagesNotTaken(r.ctx.current.agent.session.model, images.length);
    if (notTaken) r.print(r.c.yellow(`! ${notTaken}`));
    await runTurn(text, images.length ? { images } : undefined);
  }

  return { runLine, runTurn };
}
