/**
 * The end of what a server wrote to stderr: at most `maxLines` lines and `maxChars` characters, kept
 * to explain a failure (never sent to the model). Older text falls off as new text comes.
 */
export class StderrTail {
  private text = "";
  private dropped = false;

  constructor(
    private readonly maxChars = 8192,
    private readonly maxLines = 20,
  ) {}

  push(chunk: string): void {
    const all = this.text + chunk;
    this.dropped ||= all.length > this.maxChars;
    this.text = all.slice(-this.maxChars);
  }

  /** The kept lines, the last one possibly unfinished; a line cut by the character cap starts with `…`. */
  toString(): string {
    const lines = this.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const kept = lines.slice(-this.maxLines);
    return (this.dropped && kept.length === lines.length ? "…" : "") + kept.join("\n");
  }
}
