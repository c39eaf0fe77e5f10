import { readFileSync } from "node:fs";
import type { Check } from "../session/compile-check.ts";
import { hashOf } from "./log-hash.ts";

/**
 * A cache file kept beside a log (`<id>.state`, `<id>.measures`) as this build wrote it: a line of
 * JSON, its header (checked by `isHeader`), then a body that the header's `check` hash vouches
 * for. Undefined when missing, another build's, or damaged: only a cache, so never an error.
 */
export function readCacheFile<H extends { build: string; check: string }>(path: string, build: string, isHeader: () => Check): { header: H; body: Uint8Array } | undefined {
  let file: Uint8Array;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const cut = file.indexOf(0x0a);
  if (cut < 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(file.subarray(0, cut)));
  } catch {
    return undefined;
  }
  if (!isHeader()(header)) return undefined;
  const body = file.subarray(cut + 1);
  return (header as H).build === build && hashOf(body) === (header as H).check ? { header: header as H, body } : undefined;
}
