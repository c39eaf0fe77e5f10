import { createInterface } from "node:readline/promises";

/** One yes/no question on the terminal (for `shiro registry add` without --yes). */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^\s*y(es)?\s*$/i.test(await rl.question(`${question} [y/N] `));
  } finally {
    rl.close();
  }
}
