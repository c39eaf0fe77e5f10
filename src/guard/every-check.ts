import { stricter } from "./permissions.ts";
import type { Check, Verdict } from "./verdict.ts";

/** Checks as one: the strictest verdict any gives, `list` read at each call (the plugins' list is refilled in place). */
export const everyCheck =
  (list: readonly Check[]): Check =>
  (call) =>
    list.map((check) => check(call)).reduce<Verdict | undefined>((a, v) => (v === undefined ? a : a === undefined ? v : stricter(a, v)), undefined);
