import { formatCount } from "../text/format-count.ts";

/** What was left out: lines wholly or partly in the cut, and their UTF-8 bytes. */
export type InputCut = { lines: number; bytes: number };
export type FittedInput = { text: string; cut?: InputCut };

/** The head gets this share of the room; the rest goes to the tail, where a log's error is. */
const HEAD_SHARE = 0.2;
/** Room left for the marker line: its figures can run to billions. */
const MARKER_ROOM = 96;

/** The line that stands where input was left out, e.g. `[… 41,234 lines (2,512,345 bytes) of stdin left out here …]`. */
export const cutMarker = (cut: InputCut, label: string): string =>
  `[… ${describeCut(cut)} of ${label} left out here …]`;

/** "41,234 lines (2,512,345 bytes)", for the marker and the notice that goes with it. */
const describeCut = (cut: InputCut): string =>
  `${formatCount(cut.lines)} ${cut.lines === 1 ? "line" : "lines"} (${formatCount(cut.bytes)} bytes)`;

/** The notice that goes with a cut, once: "stdin is too large …: 41,234 lines (…) left out of its middle (marked in the text)". */
export const cutWords = (what: string, cut: InputCut): string => `${what}: ${describeCut(cut)} left out of its middle (marked in the text)`;

/**
 * `text` cut to at most `maxChars` characters by leaving out its middle: the head and, with most of
 * the room, the tail are kept on line boundaries, and a marker line says what went. A line longer
 * than its side's whole share is cut inside, so one huge line still leaves its end. Under
 * `MARKER_ROOM` characters only the marker is left. Linear in the text, no split into lines.
 */
export function fitInput(text: string, maxChars: number, label: string): FittedInput {
  if (text.length <= maxChars) return { text };
  const room = Math.max(0, maxChars - MARKER_ROOM);
  const headRoom = Math.floor(room * HEAD_SHARE);
  const tailRoom = room - headRoom;

  // Head: through the last line break within its room; tail: from the first line start within its room.
  let headEnd = headRoom > 0 ? text.lastIndexOf("\n", headRoom) + 1 : 0;
  if (headEnd === 0) headEnd = keepPair(text, headRoom);
  const tailFloor = text.length - tailRoom;
  const breakAt = tailRoom > 0 ? text.indexOf("\n", tailFloor - 1) : -1;
  let tailStart = breakAt === -1 ? text.length : breakAt + 1;
  if (tailStart === text.length) tailStart = keepPair(text, tailFloor);

  const omitted = text.slice(headEnd, tailStart);
  // A cut that stops inside a line touches one line more than it has line breaks.
  const cut: InputCut = { lines: countBreaks(omitted) + (omitted.endsWith("\n") ? 0 : 1), bytes: Buffer.byteLength(omitted) };
  const head = text.slice(0, headEnd);
  const joint = head === "" || head.endsWith("\n") ? "" : "\n";
  return { text: `${head}${joint}${cutMarker(cut, label)}\n${text.slice(tailStart)}`, cut };
}

/** `at`, moved one place on when it would split a surrogate pair (an emoji) in two. */
function keepPair(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

function countBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
