/** A redirection: `2>>log` is {fd:"2", op:">>", target:"log"}. Heredoc bodies are skipped. */
export type Redirect = { op: string; fd?: string; target: string };
/** Code the shell runs to produce a value: `$( )`, backticks, `<( )` or `>( )`. */
export type Substitution = { kind: "$(" | "`" | "<(" | ">("; script: string };
/** Words have quotes and escapes removed, `~`, `$HOME`, known `$VAR`s and braces expanded. */
export type SimpleCommand = { words: string[]; redirects: Redirect[]; substitutions: Substitution[] };
/** Commands joined by `|`; a script is a list of pipelines joined by `;`, `&&`, `||`, `&`, newlines. */
export type Pipeline = SimpleCommand[];

const REDIRECT_OPS = [">>", ">|", ">&", "<<<", "<<-", "<<", "<>", "<&", ">", "<"];
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;
const DECLARERS = new Set(["export", "declare", "local", "readonly", "typeset"]);
// Unquoted brace-expansion characters are swapped for these while a word is built, so quoted ones stay literal.
const OPEN = "\u0001", COMMA = "\u0002", CLOSE = "\u0003";

/**
 * Splits a shell script the way bash would before running it — enough to see every command, argument
 * and redirection target, however they are quoted, escaped, nested or chained. Variables assigned in
 * the script (`F=.env; echo > $F`) are followed; others stay literal (`$X`).
 */
export function parseShell(src: string, opts: { home: string }): Pipeline[] {
  const vars = new Map<string, string>([["HOME", opts.home]]);
  const pipelines: Pipeline[] = [];
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = { words: [], redirects: [], substitutions: [] };
  let word = "";
  let inWord = false;
  let pending: { op: string; fd?: string } | undefined;
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];

  const finishWord = () => {
    if (!inWord) return;
    const words = expandBraces(word);
    if (pending) {
      cmd.redirects.push({ ...pending, target: words[0] ?? "" });
      if (pending.op === "<<" || pending.op === "<<-") heredocs.push({ delimiter: words[0] ?? "", stripTabs: pending.op === "<<-" });
      pending = undefined;
    } else cmd.words.push(...words);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    finishWord();
    if (cmd.words.length || cmd.redirects.length || cmd.substitutions.length) {
      recordAssignments(cmd.words, vars);
      pipeline.push(cmd);
    }
    cmd = { words: [], redirects: [], substitutions: [] };
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length) pipelines.push(pipeline);
    pipeline = [];
  };
  const substitute = (kind: Substitution["kind"], script: string, raw: string) => {
    cmd.substitutions.push({ kind, script });
    word += raw;
    inWord = true;
  };
  // Expands `$…` at src[i] (src[i] === "$"); returns the index after it.
  const dollar = (i: number, quoted: boolean): number => {
    const next = src[i + 1] ?? "";
    if (next === "(") {
      const end = scanClose(src, i + 2, ")");
      substitute("$(", src.slice(i + 2, end - 1), src.slice(i, end));
      return end;
    }
    if (next === "{") {
      const end = scanClose(src, i + 2, "}");
      const inner = src.slice(i + 2, end - 1);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::?[-=](.*))?$/s.exec(inner);
      const value = m ? (vars.get(m[1]!) ?? m[2]) : undefined;
      word += value ?? src.slice(i, end);
      inWord = true;
      return end;
    }
    if (!quoted && next === "'") {
      const end = scanSingle(src, i + 2, true);
      word += decodeAnsiC(src.slice(i + 2, end - 1));
      inWord = true;
      return end;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1))?.[0];
    word += name ? (vars.get(name) ?? "$" + name) : "$";
    inWord = true;
    return i + 1 + (name?.length ?? 0);
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t") {
      finishWord();
      i++;
    } else if (c === "#" && !inWord) {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "\\") {
      if (src[i + 1] !== "\n") word += src[i + 1] ?? "";
      inWord = true;
      i += 2;
    } else if (c === "'") {
      const end = scanSingle(src, i + 1, false);
      word += src.slice(i + 1, end - 1);
      inWord = true;
      i = end;
    } else if (c === '"' || (c === "$" && src[i + 1] === '"')) {
      inWord = true;
      i += c === "$" ? 2 : 1;
      while (i < src.length && src[i] !== '"') {
        const d = src[i]!;
        if (d === "\\" && '$`"\\\n'.includes(src[i + 1] ?? "")) {
          if (src[i + 1] !== "\n") word += src[i + 1];
          i += 2;
        } else if (d === "$") i = dollar(i, true);
        else if (d === "`") i = backtick(i);
        else word += src[i++];
      }
      i++;
    } else if (c === "$") {
      i = dollar(i, false);
    } else if (c === "`") {
      i = backtick(i);
    } else if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const end = scanClose(src, i + 2, ")");
      substitute(c === "<" ? "<(" : ">(", src.slice(i + 2, end - 1), src.slice(i, end));
      i = end;
    } else if (c === "<" || c === ">" || (c === "&" && src[i + 1] === ">")) {
      let fd: string | undefined;
      if (inWord && /^\d+$/.test(word)) {
        fd = word;
        word = "";
        inWord = false;
      }
      finishWord();
      if (c === "&") {
        const op = src[i + 2] === ">" ? "&>>" : "&>";
        pending = { op };
        i += op.length;
      } else {
        const op = REDIRECT_OPS.find((o) => src.startsWith(o, i))!;
        pending = fd ? { op, fd } : { op };
        i += op.length;
      }
    } else if (c === "\n" || c === ";" || c === "&" || c === "|" || c === "(" || c === ")") {
      const pipe = c === "|" && src[i + 1] !== "|";
      if (pipe) endCommand();
      else endPipeline();
      i += c !== "\n" && src[i + 1] === c ? 2 : c === "|" && src[i + 1] === "&" ? 2 : 1;
      if (c === "\n" && heredocs.length) i = skipHeredocs(src, i, heredocs.splice(0));
    } else {
      if (c === "~" && !inWord && /^(\/|$|[\s;&|<>()])/.test(src.slice(i + 1, i + 2))) word += opts.home;
      else if (c === "~" && /^[A-Za-z_][A-Za-z0-9_]*=$/.test(word) && /^(\/|$|\s)/.test(src.slice(i + 1, i + 2))) word += opts.home;
      else word += c === "{" ? OPEN : c === "," ? COMMA : c === "}" ? CLOSE : c;
      inWord = true;
      i++;
    }
  }
  endPipeline();
  return pipelines;

  function backtick(i: number): number {
    let j = i + 1;
    let inner = "";
    while (j < src.length && src[j] !== "`") {
      if (src[j] === "\\" && j + 1 < src.length) {
        inner += src[j + 1];
        j += 2;
      } else inner += src[j++];
    }
    substitute("`", inner, src.slice(i, j + 1));
    return j + 1;
  }
}

function recordAssignments(words: string[], vars: Map<string, string>) {
  const args = DECLARERS.has(words[0] ?? "") ? words.slice(1) : words.every((w) => ASSIGNMENT.test(w)) ? words : [];
  for (const w of args) {
    const m = ASSIGNMENT.exec(w);
    if (m) vars.set(m[1]!, m[2]!);
  }
}

/** Index just after the close of a construct opened before `start`, honouring quotes and nesting. */
function scanClose(src: string, start: number, close: ")" | "}"): number {
  let i = start;
  while (i < src.length) {
    const c = src[i]!;
    if (c === close) return i + 1;
    if (c === "\\") i += 2;
    else if (c === "'") i = scanSingle(src, i + 1, false);
    else if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === "\\") i += 2;
        else if (src[i] === "$" && src[i + 1] === "(") i = scanClose(src, i + 2, ")");
        else i++;
      }
      i++;
    } else if (c === "`") {
      i++;
      while (i < src.length && src[i] !== "`") i += src[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "(" || (c === "$" && src[i + 1] === "{")) i = scanClose(src, i + (c === "(" ? 1 : 2), c === "(" ? ")" : "}");
    else i++;
  }
  return src.length + 1;
}

/** Index just after the closing `'`; in `$'…'` a backslash escapes the quote. */
function scanSingle(src: string, start: number, escapes: boolean): number {
  let i = start;
  while (i < src.length && src[i] !== "'") i += escapes && src[i] === "\\" ? 2 : 1;
  return i + 1; // past the end when unterminated, so callers' slice(…, end - 1) keeps the last character
}

function skipHeredocs(src: string, i: number, docs: { delimiter: string; stripTabs: boolean }[]): number {
  for (const doc of docs) {
    while (i < src.length) {
      const end = src.indexOf("\n", i);
      const line = src.slice(i, end === -1 ? src.length : end);
      i = end === -1 ? src.length : end + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
    }
  }
  return i;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", e: "\x1b", E: "\x1b", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** Decodes the body of `$'…'` (so `$'\x2eenv'` is seen as `.env`). */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, esc: string) => {
    if (/^[xuU]/.test(esc) && esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    if (esc[0] === "c" && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 31);
    return SIMPLE_ESCAPES[esc] ?? whole;
  });
}

/** Bash brace expansion (`{a,b}` → a b) over the unquoted-brace markers; other markers become literal. */
function expandBraces(word: string): string[] {
  const literal = (w: string) => w.replaceAll(OPEN, "{").replaceAll(COMMA, ",").replaceAll(CLOSE, "}");
  const open = word.indexOf(OPEN);
  if (open === -1) return [literal(word)];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < word.length; i++) {
    if (word[i] === OPEN) depth++;
    else if (word[i] === COMMA && depth === 1) commas.push(i);
    else if (word[i] === CLOSE && --depth === 0) {
      if (!commas.length) break;
      const head = word.slice(0, open);
      const tail = word.slice(i + 1);
      const bounds = [open, ...commas, i];
      return bounds.slice(1).flatMap((end, k) => expandBraces(head + word.slice(bounds[k]! + 1, end) + tail));
    }
  }
  const prefix = literal(word.slice(0, open + 1));
  return expandBraces(word.slice(open + 1)).map((rest) => prefix + rest);
}
