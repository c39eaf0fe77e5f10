import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LockTimeoutError, withFileLock } from "../../../src/store/file-lock.ts";

const tempFile = () => join(mkdtempSync(join(tmpdir(), "shiro-lock-")), "data.json");

describe("withFileLock", () => {
  test("holders take turns: concurrent read-modify-write cycles lose no increment", async () => {
    const file = tempFile();
    writeFileSync(file, "0");
    const bump = () =>
      withFileLock(file, async () => {
        const n = Number(readFileSync(file, "utf8"));
        await Bun.sleep(1);
        writeFileSync(file, String(n + 1));
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    expect(readFileSync(file, "utf8")).toBe("20");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test("the lock file names its holder while held and is removed after, even when fn throws", async () => {
    const file = tempFile();
    let seen = "";
    await withFileLock(file, async () => {
      seen = readFileSync(`${file}.lock`, "utf8");
    });
    expect(JSON.parse(seen)).toMatchObject({ pid: process.pid });
    await expect(withFileLock(file, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  test("a lock left by a dead process is taken over at once", async () => {
    const file = tempFile();
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: dead, at: Date.now(), token: "old" }));
    // Not taken over, it would wait out the lock's time and throw rather than run.
    expect(await withFileLock(file, async () => "ran", { timeoutMs: 2_000 })).toBe("ran");
  });

  test("a lock older than staleMs is taken over even if its pid is alive", async () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, at: Date.now() - 60_000, token: "old" }));
    expect(await withFileLock(file, async () => "ran", { staleMs: 1_000, timeoutMs: 2_000 })).toBe("ran");
  });

  test("a fresh lock held by a live process makes a waiter give up with an error naming the file", async () => {
    const file = tempFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, at: Date.now(), token: "held" }));
    const err = await withFileLock(file, async () => "ran", { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toContain(`could not lock ${file}.lock (held by pid ${process.pid}`);
    // The other holder's lock is left alone.
    expect(JSON.parse(readFileSync(`${file}.lock`, "utf8")).token).toBe("held");
  });
});
