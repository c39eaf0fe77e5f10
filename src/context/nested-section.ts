import type { InstructionFile } from "../session/reduce-session.ts";
import { formatBytes } from "../text/format-bytes.ts";

/** What one subfolder's file may bring, and all of them together: enough for real instructions, never a flood. */
export const NESTED_FILE_CAP = 16 * 1024;
export const NESTED_TOTAL_CAP = 64 * 1024;

/**
 * The text of a file of `size` bytes (`head`: its first bytes, at least what may join) as it joins
 * the instructions, when the files before it took `used` bytes: cut at the file's cap and at what
 * is left of the total (nothing, once that is spent). A character cut in two is left out.
 */
export function capNested(head: Uint8Array, size: number, used: number): { text: string; cut: boolean } {
  const allowed = Math.max(0, Math.min(NESTED_FILE_CAP, NESTED_TOTAL_CAP - used));
  const cut = size > allowed;
  const text = Buffer.from(head.subarray(0, Math.min(size, allowed))).toString("utf8");
  return { text: (cut ? text.replace(/\uFFFD$/, "") : text).trim(), cut };
}

/** The bytes a joined file takes of the total cap. */
export const nestedBytes = (files: readonly InstructionFile[]): number => files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);

/** The line that says a file was cut, in the instructions and to the person. */
export const cutNotice = (f: InstructionFile): string =>
  `${f.path} cut: ${formatBytes(Buffer.byteLength(f.text))} of its ${formatBytes(f.bytes)} kept (a subfolder's instructions are capped at ${formatBytes(NESTED_FILE_CAP)} a file, ${formatBytes(NESTED_TOTAL_CAP)} in all)`;

/** The section the subfolders' files make after the rest of the instructions; "" while there is none. */
export function nestedSection(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  const parts = files.map((f) => [`## ${f.path}`, f.text, f.cut ? `[${cutNotice(f)}]` : ""].filter((p) => p !== "").join("\n\n"));
  return ["# Instructions from AGENTS.md files in subfolders", "Each holds for the files under its own folder, on top of the instructions above.", ...parts].join("\n\n");
}
