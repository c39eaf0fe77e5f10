import { describe, expect, test } from "bun:test";
import { createAutosave } from "../../src/store/autosave.ts";

describe("autosave", () => {
  test("many changes within 400 ms make one write, made about 400 ms after the first", async () => {
    const writes: number[] = [];
    const start = performance.now();
    const autosave = createAutosave(async () => void writes.push(performance.now() - start));
    for (let i = 0; i < 20; i++) {
      autosave.schedule();
      await Bun.sleep(5);
    }
    expect(writes).toEqual([]); // nothing written while the loop runs fast
    await Bun.sleep(450);
    expect(writes).toHaveLength(1);
    expect(writes[0]!).toBeGreaterThanOrEqual(390);
    expect(writes[0]!).toBeLessThan(1000);
  });

  test("flush writes at once, and waits for a write already in flight", async () => {
    const done: string[] = [];
    let release!: () => void;
    let calls = 0;
    const autosave = createAutosave(async () => {
      const n = ++calls;
      if (n === 1) await new Promise<void>((r) => (release = r));
      done.push(`write ${n}`);
    }, { delayMs: 10 });
    autosave.schedule();
    await Bun.sleep(30); // write 1 is now in flight and blocked
    autosave.schedule(); // a change made during it
    const flushed = autosave.flush().then(() => done.push("flushed"));
    await Bun.sleep(10);
    expect(done).toEqual([]);
    release();
    await flushed;
    expect(done).toEqual(["write 1", "write 2", "flushed"]); // the later change was not lost
  });

  test("flush with nothing changed writes nothing; a failing save goes to onError, never to the caller", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const autosave = createAutosave(
      async () => {
        calls++;
        throw new Error("disk full");
      },
      { onError: (e) => errors.push(e) },
    );
    await autosave.flush();
    expect(calls).toBe(0);
    autosave.schedule();
    await autosave.flush(); // resolves despite the failure
    expect(calls).toBe(1);
    expect((errors[0] as Error).message).toBe("disk full");
  });
});
