/**
 * A key the person pressed, or a paste. `text` is what a printable key inserts; named keys have none.
 * Alt (meta) arrives as ESC before the key, as terminals send it.
 */
export type Key =
  | { name: "text"; text: string; meta?: boolean }
  | { name: "paste"; text: string }
  | { name: KeyName; ctrl?: boolean; meta?: boolean; shift?: boolean };

export type KeyName =
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "shift-tab"
  // Ctrl with a letter: "ctrl-a" … "ctrl-z" (Ctrl-I, Ctrl-M and Ctrl-H are tab, enter and backspace).
  | `ctrl-${string}`;

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

// The final byte of CSI sequences for the keys a line editor uses; `~` ones go by their number.
const CSI_FINAL: Record<string, KeyName> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", Z: "shift-tab" };
const CSI_TILDE: Record<string, KeyName> = { "1": "home", "7": "home", "4": "end", "8": "end", "3": "delete", "5": "pageup", "6": "pagedown" };

/**
 * Turns what a terminal sends into keys. Pure: bytes in, keys out. A sequence cut by a chunk boundary
 * waits for the rest; a lone ESC cannot be told from the start of a sequence until time passes, so it
 * waits too, and `flush()` (called after a short quiet spell) hands it over as Escape. Between the
 * bracketed-paste markers everything — newlines, ESC, Ctrl keys — is pasted text, never keys.
 */
export function createKeyDecoder() {
  let held = "";
  let paste: string | undefined;

  function feed(chunk: string): Key[] {
    const keys: Key[] = [];
    let text = held + chunk;
    held = "";
    while (text.length > 0) {
      if (paste !== undefined) {
        const end = text.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a possible half of the end marker for the next chunk.
          const keep = partialSuffix(text, PASTE_END);
          paste += text.slice(0, text.length - keep);
          held = text.slice(text.length - keep);
          return keys;
        }
        keys.push({ name: "paste", text: paste + text.slice(0, end) });
        paste = undefined;
        text = text.slice(end + PASTE_END.length);
        continue;
      }
      if (text.startsWith(PASTE_START)) {
        paste = "";
        text = text.slice(PASTE_START.length);
        continue;
      }
      const step = readKey(text);
      if (step === undefined) {
        held = text;
        return keys;
      }
      if (step.key) keys.push(step.key);
      text = text.slice(step.length);
    }
    return keys;
  }

  return {
    feed,
    /** Whether something waits for more bytes (a lone ESC, a cut sequence): call `flush` after a pause. */
    pending: () => held !== "" && paste === undefined,
    /** The pause passed: what waits is what it looks like (ESC alone is Escape; a cut sequence, its keys). */
    flush(): Key[] {
      const rest = held;
      held = "";
      if (rest === "\x1b") return [{ name: "escape" }];
      if (rest.startsWith("\x1b")) return [{ name: "escape" }, ...feed(rest.slice(1))];
      return feed(rest);
    },
  };
}

type Step = { key?: Key; length: number };

/** The first key in `text`; undefined when it may be the start of a longer sequence. */
function readKey(text: string): Step | undefined {
  const ch = text[0]!;
  if (ch === "\x1b") return readEscape(text);
  const code = ch.charCodeAt(0);
  if (ch === "\r") return { key: { name: "enter" }, length: text[1] === "\n" ? 2 : 1 };
  // Ctrl-J: a newline in the prompt, as Alt-Enter.
  if (ch === "\n") return { key: { name: "enter", meta: true }, length: 1 };
  if (ch === "\t") return { key: { name: "tab" }, length: 1 };
  if (ch === "\x7f" || ch === "\b") return { key: { name: "backspace" }, length: 1 };
  if (code < 0x20) return { key: { name: `ctrl-${String.fromCharCode(code + 0x60)}` }, length: 1 };
  // A run of printable characters is one key, so a fast typist's burst is inserted at once.
  let end = 1;
  while (end < text.length && text.charCodeAt(end) >= 0x20 && text[end] !== "\x7f" && text[end] !== "\x1b") end++;
  return { key: { name: "text", text: text.slice(0, end) }, length: end };
}

function readEscape(text: string): Step | undefined {
  if (text.length === 1) return undefined;
  const next = text[1]!;
  if (next === "[") return readCsi(text);
  if (next === "O") {
    if (text.length < 3) return undefined;
    const name = CSI_FINAL[text[2]!];
    return { ...(name ? { key: { name } } : {}), length: 3 };
  }
  // Alt with a key: Alt-Enter inserts a newline, Alt-Backspace deletes a word, Alt-b/f move by words.
  if (next === "\r" || next === "\n") return { key: { name: "enter", meta: true }, length: 2 };
  if (next === "\x7f" || next === "\b") return { key: { name: "backspace", meta: true }, length: 2 };
  if (next === "\x1b") return { key: { name: "escape" }, length: 1 };
  if (next.charCodeAt(0) < 0x20) return { key: { name: `ctrl-${String.fromCharCode(next.charCodeAt(0) + 0x60)}`, meta: true }, length: 2 };
  return { key: { name: "text", text: next, meta: true }, length: 2 };
}

function readCsi(text: string): Step | undefined {
  let end = 2;
  while (end < text.length && !/[@-~]/.test(text[end]!)) end++;
  if (end >= text.length) return undefined;
  const params = text.slice(2, end);
  const final = text[end]!;
  const length = end + 1;
  const [first = "", modifier = "1"] = params.split(";");
  // xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4).
  const bits = Math.max(0, Number(modifier) - 1);
  const mods = { ...(bits & 4 ? { ctrl: true } : {}), ...(bits & 2 ? { meta: true } : {}), ...(bits & 1 ? { shift: true } : {}) };
  const name = final === "~" ? CSI_TILDE[first] : CSI_FINAL[final];
  // Shift-Enter and Alt-Enter as some terminals report them (CSI 13;2u, CSI 27;2;13~).
  if ((final === "u" && first === "13") || (final === "~" && first === "27" && params.endsWith(";13"))) return { key: { name: "enter", meta: true }, length };
  return name ? { key: { name, ...mods }, length } : { length };
}

/** How many characters at the end of `text` are the start of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) if (marker.startsWith(text.slice(-n))) return n;
  return 0;
}
