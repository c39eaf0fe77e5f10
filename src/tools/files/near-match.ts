import { similarity } from "./text-file.ts";

export type NearMatch = { line: number; text: string; whitespaceOnly: boolean };

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
// Bounds the edit-distance scan so a miss in a huge file stays fast.
const MAX_SCAN_LINES = 20_000;
const MAX_LINE_CHARS = 400;

/**
 * Where in `content` the model probably meant `wanted` to be: first a block that differs only in
 * whitespace, else the line most similar to the first non-blank line of `wanted` (at least half alike).
 */
export function findNearMatch(content: string, wanted: string): NearMatch | undefined {
  const lines = content.split("\n");
  const wantedLines = wanted.split("\n");
  const target = squash(wanted);
  if (target !== "") {
    const span = wantedLines.length;
    for (let i = 0; i + span <= lines.length; i++) {
      if (squash(lines.slice(i, i + span).join("\n")) === target) return { line: i + 1, text: lines[i]!, whitespaceOnly: true };
    }
  }
  const first = squash(wantedLines.find((l) => l.trim() !== "") ?? "");
  if (first === "") return undefined;
  let best: NearMatch | undefined;
  let bestScore = 0.5;
  for (let i = 0; i < Math.min(lines.length, MAX_SCAN_LINES); i++) {
    const candidate = squash(lines[i]!);
    if (candidate === "" || Math.abs(candidate.length - first.length) > first.length) continue;
    const score = similarity(first.slice(0, MAX_LINE_CHARS), candidate.slice(0, MAX_LINE_CHARS));
    if (score > bestScore) {
      bestScore = score;
      best = { line: i + 1, text: lines[i]!, whitespaceOnly: false };
    }
  }
  return best;
}
