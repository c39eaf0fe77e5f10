import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashesOfFile, hashOfLog } from "../../../src/store/log-hash.ts";
import { prng } from "../../support/random-history.ts";
import { tempDir } from "../../support/run-shiro.ts";

const dir = tempDir("log-hash");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a log's prefixes hashed as the file is read a chunk at a time are those of its bytes in memory, on either side of every chunk's edge", () => {
  const rng = prng(3);
  const CHUNK = 1 << 18;
  for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 777]) {
    const bytes = Uint8Array.from({ length: size }, () => rng.int(0, 255));
    const path = join(dir, `log-${size}`);
    writeFileSync(path, bytes);
    const lengths = [0, size, CHUNK, CHUNK - 1, CHUNK + 1, 2 * CHUNK, rng.int(0, size), rng.int(0, size)].filter((n) => n <= size);
    const hashes = hashesOfFile(path, lengths)!;
    for (const n of lengths) expect([size, n, hashes.get(n)]).toEqual([size, n, hashOfLog(bytes.subarray(0, n))]);
  }
  // Each byte counts: a prefix that differs anywhere hashes otherwise.
  const a = new Uint8Array(CHUNK + 10);
  const b = a.slice();
  b[CHUNK + 3] = 1;
  expect(hashOfLog(a)).not.toBe(hashOfLog(b));
  expect(hashOfLog(a.subarray(0, CHUNK))).toBe(hashOfLog(b.subarray(0, CHUNK)));
  expect(hashesOfFile(join(dir, "none"), [0])).toBeUndefined();
});
