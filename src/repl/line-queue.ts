import type pc from "picocolors";
import { plural } from "../text/plural.ts";

/** A prompt typed while work runs: sent as `text`, shown (pastes collapsed) as `shown`. */
export type Queued = { text: string; shown: string };

/** The lines typed while work runs, shown under the prompt until their turn comes, or dropped (said so). */
export function createLineQueue(o: { show: (shown: string[]) => void; print: (text: string) => void; c: ReturnType<typeof pc.createColors> }) {
  const queue: Queued[] = [];
  const show = () => o.show(queue.map((q) => q.shown));
  return {
    push(line: Queued) {
      queue.push(line);
      show();
    },
    next(): Queued | undefined {
      const line = queue.shift();
      if (line !== undefined) show();
      return line;
    },
    /** Esc: what was waiting is dropped, and the person told what. */
    drop() {
      if (queue.length) o.print(o.c.dim(`· dropped ${plural(queue.length, "queued prompt")}: ${queue.map((q) => q.shown.split("\n")[0]).join(" · ")}`));
      queue.length = 0;
      show();
    },
    get length(): number {
      return queue.length;
    },
    /** Quitting: nothing waiting runs. */
    clear: () => void (queue.length = 0),
  };
}

export type LineQueue = ReturnType<typeof createLineQueue>;
