import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { AssistantMessage, ToolMessage } from "../session/messages.ts";
import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";
import { userItem } from "../wire/serialise-input.ts";
import { describeSubject, firstLine, subjectOf } from "./describe-call.ts";
import { type WireEntry } from "./wire-entry.ts";
import { sized, type SizedItem } from "../wire/sized-item.ts";
import type { KnownRegion, WireLedger } from "./wire-ledger.ts";

const NOTE_HEAD = (n: number) =>
  `[shiro: ${plural(n, "earlier step")} left out of this request to fit the context window. ` +
  "Their effects on files and the system remain; do not repeat them unless needed. What they did:";
// What a note's head and its item framing cost, for the estimate of what dropping saves.
const NOTE_OVERHEAD = NOTE_HEAD(1).length + 80;

/** One line per call (and per answer) of a dropped exchange, with its outcome, from the original history. */
export function outcomeLines(assistant: AssistantMessage, tool: ToolMessage | undefined): string[] {
  const lines: string[] = [];
  for (const p of assistant.parts) {
    if (p.type === "text" && p.text.trim()) lines.push(`- said: "${firstLine(p.text, 100)}"`);
    if (p.type !== "tool-call") continue;
    const result = tool?.results.find((r) => r.callId === p.callId);
    const outcome = !result
      ? "interrupted, not re-run"
      : result.isError
        ? `error: ${firstLine(result.output, 100)}`
        : `ok (${formatCount(result.output.length)} chars)${result.output.trim() ? `: ${firstLine(result.output, 60)}` : ""}`;
    lines.push(`- ${describeSubject(p.name, subjectOf(p))} → ${outcome}`);
  }
  return lines;
}

/** An exchange measured for dropping: `last` is its newest entry as measured (a re-measured one is a new object); its note lines are told when first needed. */
type Row = { from: number; to: number; last: WireEntry; lines?: readonly string[] };
/**
 * What the oldest `drop` exchanges leave on the wire: `items` stand for entries [0, end), `chars`
 * in all, `unchanged` of them sent as they are; `notes` are the gaps'. `readBack`: an earlier run's
 * region of these very entries, its items as that run sent them — parsed only if `items` is read.
 */
export type DroppedRegion = { readonly items: readonly SizedItem[]; chars: number; unchanged: number; end: number; readonly notes: readonly SizedItem[]; readBack?: KnownRegion };
/** A region made, with the entries it was made of (it holds for a ledger with these very entries). */
type Region = DroppedRegion & { drop: number; of: readonly WireEntry[] };
/** Adjacent exchanges [first, first + count): dropped, they share one note (`note` for its first `count`). */
type Gap = { first: number; count: number; note?: { count: number; item: SizedItem } };
/** What the oldest exchanges of a ledger would leave behind if dropped, kept while the ledger keeps them. */
type DropTable = {
  rows: Row[];
  gaps: Gap[];
  /** What dropping exchanges [0, x) saves, roughly (the notes are estimated), and its running maximum. */
  sums: number[];
  saved: number[];
  region?: Region;
};
const tables = new WeakMap<WireLedger, DropTable>();

function tableOf(ledger: WireLedger): DropTable {
  let table = tables.get(ledger);
  if (!table) {
    table = { rows: [], gaps: [], sums: [0], saved: [0] };
    tables.set(ledger, table);
  }
  // The ledger only ever re-measures its newest entries (or starts over): rows are checked from the newest back.
  const { exchanges, entries } = ledger;
  let x = Math.min(table.rows.length, exchanges.length);
  while (x > 0 && (table.rows[x - 1]!.to !== exchanges[x - 1]!.to || table.rows[x - 1]!.last !== entries[exchanges[x - 1]!.to])) x--;
  if (x < table.rows.length) {
    table.rows.length = x;
    table.sums.length = x + 1;
    table.saved.length = x + 1;
    while (table.gaps.length && table.gaps.at(-1)!.first >= x) table.gaps.pop();
    const last = table.gaps.at(-1);
    if (last && last.first + last.count > x) last.count = x - last.first;
    if (table.region && table.region.drop > x) table.region = undefined;
  }
  return table;
}

function rowOf(ledger: WireLedger, table: DropTable, x: number): Row {
  while (table.rows.length <= x) {
    const i = table.rows.length;
    const { from, to } = ledger.exchanges[i]!;
    const last = ledger.entries[to]!;
    const row: Row = { from, to, last };
    // Known sizes of the lines spare telling them (a resume's region may come whole from the measures file).
    let saved = -(ledger.entries[from]!.noteChars ?? lineChars(linesOf(ledger, row)));
    for (let k = from; k <= to; k++) saved += ledger.entries[k]!.bareChars;
    if (i === 0 || ledger.exchanges[i - 1]!.to !== from - 1) {
      saved -= NOTE_OVERHEAD;
      table.gaps.push({ first: i, count: 1 });
    } else table.gaps.at(-1)!.count++;
    table.rows.push(row);
    table.sums.push(table.sums[i]! + saved);
    table.saved.push(Math.max(table.saved[i]!, table.sums[i + 1]!));
  }
  return table.rows[x]!;
}

/** What a note says of an exchange: one line per call and answer of its response. */
function linesOf(ledger: WireLedger, row: Row): readonly string[] {
  if (!row.lines) {
    const first = ledger.entries[row.from]!;
    const tool = row.last.message.role === "tool" ? row.last.message : undefined;
    row.lines = first.message.role === "assistant" ? (first.noteLines ?? outcomeLines(first.message, tool)) : [];
  }
  return row.lines;
}

/** What dropping the oldest `x` exchanges saves, at least as much as any fewer would (non-decreasing in x). */
export function dropSavings(ledger: WireLedger, x: number): number {
  const table = tableOf(ledger);
  if (x > 0) rowOf(ledger, table, x - 1);
  return table.saved[x]!;
}

const lineChars = (lines: readonly string[]) => lines.reduce((n, line) => n + line.length + 1, 0);

/** At least what exchange `x` adds to a note when dropped: its lines and their newlines (JSON only lengthens them). */
export function noteLineChars(ledger: WireLedger, x: number): number {
  return ledger.entries[ledger.exchanges[x]!.from]!.noteChars ?? lineChars(linesOf(ledger, rowOf(ledger, tableOf(ledger), x)));
}

export { lineChars };

/** The note in place of a gap's first `count` exchanges, listing every call they made with its outcome. */
function noteOf(ledger: WireLedger, table: DropTable, gap: Gap, count: number): SizedItem {
  if (gap.note?.count !== count) {
    const lines = table.rows.slice(gap.first, gap.first + count).flatMap((row) => linesOf(ledger, row));
    gap.note = { count, item: sized(userItem(`${NOTE_HEAD(count)}\n${lines.join("\n")}]`)) };
  }
  return gap.note.item;
}

/**
 * The wire from the active start to the end of the oldest `drop` exchanges: the user messages and
 * markers among them, and in each gap a note listing every dropped call with its outcome, told from
 * the real outputs. `unchanged` counts the messages kept as they were. Each gap's note is made once;
 * the whole region is read back instead when an earlier run made it of these very entries
 * (`known-measures.ts`: a thousand notes' lines and JSON are milliseconds of a resume).
 */
export function droppedRegion(ledger: WireLedger, drop: number): DroppedRegion {
  const table = tableOf(ledger);
  if (table.region?.drop === drop) return table.region;
  rowOf(ledger, table, drop - 1);
  const { exchanges, entries } = ledger;
  const gaps = table.gaps.filter((gap) => gap.first < drop);
  // An earlier run's region of these very entries, read back: the same items, not made again.
  const known = ledger.known?.region(ledger, drop);
  if (known && known.notes.length === gaps.length) {
    table.region = readBackRegion(known, drop, entries.slice(0, known.end));
    return table.region;
  }
  const items: SizedItem[] = [];
  const notes: SizedItem[] = [];
  let unchanged = 0;
  let k = 0;
  for (const gap of gaps) {
    // A user message or the marker: every response in the region is in an exchange.
    for (; k < exchanges[gap.first]!.from; k++, unchanged++) items.push(entries[k]!.slots[0]!);
    const count = Math.min(gap.count, drop - gap.first);
    const note = noteOf(ledger, table, gap, count);
    items.push(note);
    notes.push(note);
    k = exchanges[gap.first + count - 1]!.to + 1;
  }
  table.region = { drop, items, chars: items.reduce((n, i) => n + i.chars, 0), unchanged, end: k, notes, of: entries.slice(0, k) };
  return table.region;
}

/** A region read back, as one made here: its items (and notes) parsed from their JSON when first asked for. */
function readBackRegion(known: KnownRegion, drop: number, of: readonly WireEntry[]): Region {
  let items: SizedItem[] | undefined;
  const parsed = () => (items ??= (JSON.parse(new TextDecoder().decode(known.head)) as ResponseInputItem[]).map((item, j) => ({ item, chars: known.chars[j]! })));
  return {
    drop,
    get items() {
      return parsed();
    },
    get notes() {
      return known.notes.map((n) => parsed()[n]!);
    },
    chars: known.chars.reduce((n, c) => n + c, 0),
    unchanged: known.chars.length - known.notes.length,
    end: known.end,
    of,
    readBack: known,
  };
}

/** The region the ledger's last compacted request dropped, with the entries it was made of: what a run stores for the next resume. */
export function composedRegion(ledger: WireLedger): Readonly<Region> | undefined {
  return tables.get(ledger)?.region;
}
