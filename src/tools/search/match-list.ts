import { clipText } from "../../text/clip-text.ts";

export type Match = { path: string; line: number; text: string };

const byPlace = (a: Match, b: Match) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);

/**
 * The matching lines of a search, however they arrive (ripgrep's threads finish files in any order):
 * the first `max` by path and line number are kept, every match is counted. Memory stays at about
 * twice `max` lines whatever the number of matches.
 */
export class MatchList {
  private kept: Match[] = [];
  private perFile = new Map<string, number>();
  total = 0;

  constructor(
    private readonly max: number,
    private readonly lineChars: number,
  ) {}

  add(path: string, line: number, text: string): void {
    this.total++;
    this.perFile.set(path, (this.perFile.get(path) ?? 0) + 1);
    this.kept.push({ path, line, text: clipText(text.replace(/\r$/, ""), this.lineChars) });
    if (this.kept.length >= 2 * this.max) this.trim();
  }

  /** Forgets a file's matches after all (ripgrep found it binary only after matching lines in it). */
  drop(path: string): void {
    this.total -= this.perFile.get(path) ?? 0;
    this.perFile.delete(path);
    this.kept = this.kept.filter((m) => m.path !== path);
  }

  /** The first `max` matches in order. */
  shown(): Match[] {
    this.trim();
    return this.kept;
  }

  private trim(): void {
    this.kept.sort(byPlace);
    this.kept.length = Math.min(this.kept.length, this.max);
  }
}
