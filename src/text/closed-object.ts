import { z } from "zod";
import { didYouMean } from "./nearest.ts";

/**
 * A strict object whose unknown key is named with the nearest known one (`unknown key "modle"; did
 * you mean "model"?`): a typo in a hand-written file must never be ignored, and should be easy to fix.
 */
export function closedObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? issue.keys.map((key) => unknownKey(key, known)).join("; ") : undefined),
  });
}

const unknownKey = (key: string, known: readonly string[]) =>
  `unknown key ${JSON.stringify(key)}${didYouMean(key, known) || ` (known keys: ${known.join(", ")})`}`;
