import type pc from "picocolors";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { shownAsIs } from "../text/terminal-text.ts";
import { renderDiff } from "../ui/diff-view.ts";
import type { ReplContext } from "./repl-command.ts";
import type { createLivePrompt } from "./live-prompt.ts";
import type { Turn } from "./repl-turn.ts";
import type { WorkSlot } from "./work-slot.ts";

/** The refusal an aborted turn gives to a question still waiting. */
const STOPPED: AskAnswer = { answer: "no", reason: "they stopped the turn" };

type Questions = {
  live: ReturnType<typeof createLivePrompt>;
  slot: WorkSlot;
  print: (text: string) => void;
  color: boolean;
  c: ReturnType<typeof pc.createColors>;
  /** Ctrl-D at a question quits. */
  close: () => void;
  abortTurn: (turn: Turn) => void;
};

/** What the REPL asks the person, at the prompt: an approval (with the write's diff), yes or no, a pick from a list. */
export function createPersonQuestions(q: Questions) {
  const confirm = async (question: string) => {
    const yes = await q.live.confirm(question);
    if (yes === "eof") q.close();
    return yes === true;
  };
  return {
    async approve({ summary, preview, always }: AskRequest): Promise<AskAnswer> {
      q.print(`${q.c.yellow("?")} ${shownAsIs(summary)}`);
      const turn = q.slot.turn;
      if (preview) q.print(renderDiff(preview, q.color));
      if (preview && turn) turn.diffShown = true;
      const asked = await q.live.approve(always);
      if (asked === "eof") q.close();
      else if (asked === "stopped" && turn) q.abortTurn(turn);
      return asked === "eof" || asked === "stopped" ? STOPPED : asked;
    },
    confirm,
    /** y takes it; anything typed instead declines it and stays in the prompt, as the start of a reply. */
    async offer(question: string): Promise<boolean> {
      const yes = await q.live.offer(question);
      if (yes === "eof") q.close();
      return yes === true;
    },
    pick: (async (list) => {
      const chosen = await q.live.pick(list);
      if (chosen === "eof") q.close();
      return chosen === "eof" ? undefined : chosen;
    }) as ReplContext["pick"],
    /** A project's hooks run in the sandbox but as the person's: the person reads them first. */
    async hooks(lines: readonly string[]): Promise<boolean> {
      for (const line of lines) q.print(shownAsIs(line));
      return confirm("Run these hooks? (remembered until they change)");
    },
  };
}
