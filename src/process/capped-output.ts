/**
 * Collects a stream of text keeping only its head and tail, so a command that prints gigabytes
 * costs bounded memory, and reports how much of the middle was dropped.
 */
export class CappedOutput {
  private head = "";
  private tail = "";
  private dropped = 0;
  private pushed = 0;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    this.pushed += chunk.length;
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    this.tail += chunk;
    const keep = this.max - half;
    if (this.tail.length > keep * 2) this.trimTail(keep);
  }

  /** How many characters were pushed, kept or not. */
  size(): number {
    return this.pushed;
  }

  /** How many characters of the middle are dropped. */
  cut(): number {
    this.trimTail(this.max - Math.floor(this.max / 2));
    return this.dropped;
  }

  text(): string {
    if (this.cut() === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.dropped} chars cut from the middle of the output …]\n${this.tail}`;
  }

  private trimTail(keep: number) {
    if (this.tail.length <= keep) return;
    this.dropped += this.tail.length - keep;
    this.tail = this.tail.slice(-keep);
  }
}
