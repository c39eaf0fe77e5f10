import type { Key } from "./key-decoder.ts";

/** The prompt being typed: its text (lines joined by "\n") and the cursor, an index into it. */
export type Draft = { readonly text: string; readonly cursor: number };

export const emptyDraft: Draft = { text: "", cursor: 0 };

export const draftOf = (text: string): Draft => ({ text, cursor: text.length });

/**
 * Pure edits of a draft: each returns the new draft. Movement is by code point (an astral character
 * is one step); Home, End, Ctrl-U and Ctrl-K act on the line the cursor is in, as in a shell's
 * multi-line editing. `atoms` are stretches deleted whole (a collapsed paste's placeholder).
 */
export const edit = {
  insert: (d: Draft, s: string): Draft => ({ text: d.text.slice(0, d.cursor) + s + d.text.slice(d.cursor), cursor: d.cursor + s.length }),

  backspace(d: Draft, atoms: readonly string[] = []): Draft {
    if (d.cursor === 0) return d;
    const before = d.text.slice(0, d.cursor);
    const atom = atoms.find((a) => before.endsWith(a));
    return cut(d, atom ? d.cursor - atom.length : prevPoint(d.text, d.cursor), d.cursor);
  },
  delete: (d: Draft, atoms: readonly string[] = []): Draft => {
    const atom = atoms.find((a) => d.text.startsWith(a, d.cursor));
    return d.cursor >= d.text.length ? d : cut(d, d.cursor, atom ? d.cursor + atom.length : nextPoint(d.text, d.cursor));
  },
  left: (d: Draft): Draft => ({ ...d, cursor: prevPoint(d.text, d.cursor) }),
  right: (d: Draft): Draft => ({ ...d, cursor: nextPoint(d.text, d.cursor) }),
  home: (d: Draft): Draft => ({ ...d, cursor: lineStart(d.text, d.cursor) }),
  end: (d: Draft): Draft => ({ ...d, cursor: lineEnd(d.text, d.cursor) }),
  wordLeft: (d: Draft): Draft => ({ ...d, cursor: wordStart(d.text, d.cursor) }),
  wordRight(d: Draft): Draft {
    let i = d.cursor;
    while (i < d.text.length && !isWord(d.text[i]!)) i++;
    while (i < d.text.length && isWord(d.text[i]!)) i++;
    return { ...d, cursor: i };
  },
  killToStart: (d: Draft): Draft => cut(d, lineStart(d.text, d.cursor) === d.cursor && d.cursor > 0 ? d.cursor - 1 : lineStart(d.text, d.cursor), d.cursor),
  killToEnd: (d: Draft): Draft => cut(d, d.cursor, lineEnd(d.text, d.cursor) === d.cursor ? Math.min(d.text.length, d.cursor + 1) : lineEnd(d.text, d.cursor)),
  killWordBack: (d: Draft): Draft => cut(d, wordStart(d.text, d.cursor), d.cursor),
  killWordForward: (d: Draft): Draft => cut(d, d.cursor, edit.wordRight(d).cursor),

  /** The line above, at the same column (or its end); undefined on the first line, where ↑ walks history. */
  up(d: Draft): Draft | undefined {
    const start = lineStart(d.text, d.cursor);
    if (start === 0) return undefined;
    const above = lineStart(d.text, start - 1);
    return { ...d, cursor: Math.min(above + (d.cursor - start), start - 1) };
  },
  down(d: Draft): Draft | undefined {
    const end = lineEnd(d.text, d.cursor);
    if (end === d.text.length) return undefined;
    const column = d.cursor - lineStart(d.text, d.cursor);
    return { ...d, cursor: Math.min(end + 1 + column, lineEnd(d.text, end + 1)) };
  },
};

/**
 * The draft after an editing key, as readline and shells bind them (Ctrl-A/E/B/F/U/K/W, Alt-B/F/D,
 * Alt-Backspace, Ctrl-arrows by words); undefined for keys that are not edits (Enter, Tab, ↑…).
 */
export function editKey(d: Draft, key: Key, atoms: readonly string[] = []): Draft | undefined {
  const word = ("ctrl" in key && key.ctrl === true) || ("meta" in key && key.meta === true);
  switch (key.name) {
    case "text":
      if (key.meta) return key.text === "b" ? edit.wordLeft(d) : key.text === "f" ? edit.wordRight(d) : key.text === "d" ? edit.killWordForward(d) : undefined;
      return edit.insert(d, key.text);
    case "backspace":
      return key.meta ? edit.killWordBack(d) : edit.backspace(d, atoms);
    case "delete":
      return edit.delete(d, atoms);
    case "left":
    case "ctrl-b":
      return word ? edit.wordLeft(d) : edit.left(d);
    case "right":
    case "ctrl-f":
      return word ? edit.wordRight(d) : edit.right(d);
    case "home":
    case "ctrl-a":
      return edit.home(d);
    case "end":
    case "ctrl-e":
      return edit.end(d);
    case "ctrl-u":
      return edit.killToStart(d);
    case "ctrl-k":
      return edit.killToEnd(d);
    case "ctrl-w":
      return edit.killWordBack(d);
    default:
      return undefined;
  }
}

const cut = (d: Draft, from: number, to: number): Draft => ({ text: d.text.slice(0, from) + d.text.slice(to), cursor: from });

const lineStart = (text: string, i: number) => text.lastIndexOf("\n", i - 1) + 1;
function lineEnd(text: string, i: number): number {
  const end = text.indexOf("\n", i);
  return end === -1 ? text.length : end;
}

const isWord = (ch: string) => /[\p{L}\p{N}_]/u.test(ch);
function wordStart(text: string, i: number): number {
  while (i > 0 && !isWord(text[i - 1]!)) i--;
  while (i > 0 && isWord(text[i - 1]!)) i--;
  return i;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
function prevPoint(text: string, i: number): number {
  if (i <= 0) return 0;
  return i >= 2 && isLowSurrogate(text.charCodeAt(i - 1)) ? i - 2 : i - 1;
}
function nextPoint(text: string, i: number): number {
  if (i >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(i + 1)) ? i + 2 : i + 1;
}
