import { Writable } from "node:stream";

export type GatedOutput = Writable & { readonly columns: number; readonly rows: number; readonly isTTY: true };

/**
 * readline's output, passed through only while `open()` says so. During a turn the keys a person types
 * are still read (and queued on Enter) but not echoed, so they never splice into the streamed answer.
 */
export function gatedOutput(target: NodeJS.WriteStream, open: () => boolean): GatedOutput {
  const out = new Writable({
    // Done at once, never after the terminal's callback: later writes must not wait behind this one,
    // or they would land after text the REPL writes to the terminal directly.
    write(chunk, _encoding, done) {
      if (open()) target.write(chunk);
      done();
    },
  });
  Object.defineProperties(out, {
    columns: { get: () => target.columns },
    rows: { get: () => target.rows },
    isTTY: { value: true },
  });
  target.on("resize", () => out.emit("resize"));
  return out as GatedOutput;
}
