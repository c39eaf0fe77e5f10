/** Items numbered from 1, as a person counts them: items from..to of this body are the other's items as..as+(to-from). */
export type ReusedRange = { from: number; to: number; as: number };
export type ItemRange = { from: number; to: number };

export type BodyDiff = {
  items: number;
  reused: ReusedRange[];
  added: { item: number; value: unknown }[];
  /** The earlier body's items this one does not send again. */
  dropped: ItemRange[];
  /** Top-level fields other than `input`: equal to the earlier body's, or not (or new, with no earlier body). */
  same: string[];
  changed: string[];
};

type Body = { input?: unknown } & Record<string, unknown>;

/**
 * Two request bodies compared by reference, the way a prompt cache sees them: each input item of
 * `now` is either one of `before`'s (byte for byte) or new; `before`'s items left unclaimed are dropped.
 */
export function bodyDiff(before: Body | undefined, now: Body): BodyDiff {
  const earlier = inputOf(before);
  const items = inputOf(now);
  const unclaimed = new Map<string, number[]>();
  earlier.forEach((item, i) => {
    const key = JSON.stringify(item);
    const at = unclaimed.get(key);
    if (at) at.push(i + 1);
    else unclaimed.set(key, [i + 1]);
  });
  const reused: ReusedRange[] = [];
  const added: BodyDiff["added"] = [];
  const claimed = new Set<number>();
  items.forEach((value, i) => {
    const item = i + 1;
    const as = unclaimed.get(JSON.stringify(value))?.shift();
    if (as === undefined) return void added.push({ item, value });
    claimed.add(as);
    const last = reused.at(-1);
    if (last && last.to === item - 1 && last.as + (last.to - last.from) === as - 1) last.to = item;
    else reused.push({ from: item, to: item, as });
  });
  const dropped: ItemRange[] = [];
  for (let i = 1; i <= earlier.length; i++) {
    if (claimed.has(i)) continue;
    const last = dropped.at(-1);
    if (last && last.to === i - 1) last.to = i;
    else dropped.push({ from: i, to: i });
  }
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(now)])].filter((k) => k !== "input");
  const equal = (k: string) => before !== undefined && JSON.stringify(before[k]) === JSON.stringify(now[k]);
  return { items: items.length, reused, added, dropped, same: fields.filter(equal), changed: fields.filter((k) => !equal(k)) };
}

const inputOf = (body: Body | undefined): unknown[] => (Array.isArray(body?.input) ? body.input : []);

/** "item 3" or "items 3–7". */
export const rangeText = (noun: string, r: ItemRange): string => (r.from === r.to ? `${noun} ${r.from}` : `${noun}s ${r.from}–${r.to}`);
