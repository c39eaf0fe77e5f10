export type StreamKind = "text" | "reasoning";
export type Piece = { kind: StreamKind; text: string };
/** What to print for a delta: its new part, or (the retry departed from what was shown) the whole new stream. */
export type Shown = { show: string } | { restart: Piece[] };

/**
 * A retried model call streams its answer again from the start. While the new stream repeats what
 * the person already saw nothing is printed, and past that the rest follows on, so a retry that
 * says the same thing is seamless. If it departs, `restart` hands back the new stream to print afresh.
 */
export function createReplayFilter() {
  // The current step's stream as the person will have seen it once any replay is settled.
  let stream: Piece[] = [];
  let replay: Piece[] | undefined;
  let piece = 0;
  let offset = 0;

  const append = (kind: StreamKind, text: string) => {
    const last = stream.at(-1);
    if (last?.kind === kind) last.text += text;
    else stream.push({ kind, text });
  };
  const restart = (): Shown => {
    replay = undefined;
    return { restart: stream.map((p) => ({ ...p })) };
  };

  return {
    /** A retry began; true when something was already shown (so it will be streamed again). */
    retry(): boolean {
      if (stream.length === 0) return false;
      [replay, stream, piece, offset] = [stream, [], 0, 0];
      return true;
    },
    delta(kind: StreamKind, text: string): Shown {
      append(kind, text);
      let i = 0;
      while (replay && i < text.length) {
        const expected = replay[piece];
        if (!expected) replay = undefined;
        else if (offset === expected.text.length) [piece, offset] = [piece + 1, 0];
        else if (expected.kind !== kind || expected.text[offset] !== text[i]) return restart();
        else [offset, i] = [offset + 1, i + 1];
      }
      return { show: text.slice(i) };
    },
    /** The step ended: a retried stream shorter than what was shown must be shown afresh. */
    finish(): Shown | undefined {
      const unsettled = replay && (piece < replay.length - 1 || offset < (replay[piece]?.text.length ?? 0));
      const result = unsettled ? restart() : undefined;
      [stream, replay, piece, offset] = [[], undefined, 0, 0];
      return result;
    },
  };
}
