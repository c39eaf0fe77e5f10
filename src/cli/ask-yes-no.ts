import { createInterface } from "node:readline/promises";

/** A typed answer to a `[y/N]` question: only y or yes (any case) says yes. */
export const isYes = (answer: string): boolean => /^\s*y(es)?\s*$/i.test(answer);

/** One yes/no question on the terminal (for `shiro registry add` without --yes). */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return isYes(await rl.question(`${question} [y/N] `));
  } finally {
    rl.close();
  }
}
