import { showHidden } from "./hidden-chars.ts";

// Escape sequences: CSI (`ESC [` … a final byte), the string ones (OSC, DCS, SOS, PM, APC) up to BEL
// or ST — or to the end, when unterminated —, and the two-character ones (a lone ESC too).
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -~]?)/g;
const SGR = /^\x1b\[[0-9;:]*m$/;
// Controls a terminal obeys, but tab, newline and carriage return; C1 ones (U+009B is a CSI to some) too.
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/g;

/**
 * Text from the model, a tool, an MCP server or a project as a terminal may be sent it: colours kept,
 * and nothing else it would obey — no cursor moves or erases, no title, clipboard (OSC 52) or hyperlink
 * sequences, no bell or backspace. What streams in cannot rewrite what the person reads.
 */
export const terminalText = (text: string): string => text.replace(ESCAPES, (seq) => (SGR.test(seq) ? seq : "")).replace(CONTROLS, "");

// A whole sequence, from its ESC: what a stream holds back until the rest has come.
const WHOLE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|[\x20-\x4f\x51-\x57\x59\x5a\x5c\x60-\x7e])/y;
const MAX_HELD = 4096;

/** terminalText for a stream of chunks: a sequence cut between two waits for its end (a long unfinished one is dropped). */
export function terminalStream(): (chunk: string) => string {
  let held = "";
  return (chunk) => {
    const text = held + chunk;
    const last = text.lastIndexOf("\x1b");
    WHOLE.lastIndex = last;
    const cut = last < 0 || WHOLE.test(text) || text.length - last > MAX_HELD ? text.length : last;
    held = text.slice(cut);
    return terminalText(text.slice(0, cut));
  };
}

/** No escape sequence or control at all (tab and newline aside): for one-line summaries of what tools did. */
export const withoutEscapes = (text: string): string => text.replace(ESCAPES, "").replace(CONTROLS, "");

/**
 * What a person is asked to approve, every character visible: controls, escapes, a carriage return
 * not ending a line, zero-width and bidirectional characters spelled out (`<U+001B>`), so the words
 * that will run cannot hide behind an erase, a return or a reordering.
 */
export const shownAsIs = (text: string): string => showHidden(text).replace(/\r(?!\n)/g, "<U+000D>");
