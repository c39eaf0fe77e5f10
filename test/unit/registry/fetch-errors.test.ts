import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { json, removeDir, runRegistry, sha256, tempHome } from "../../support/registry-fixture.ts";

// A failed fetch names each URL once: the refusal's subject already carries the index URL.
let ca: TestCa;
let server: TestHttps;
beforeAll(() => {
  ca = makeTestCertificate();
  server = startHttpsServer(ca);
});
afterAll(() => {
  server.stop();
  removeCertificate(ca);
});

test("a missing index: one line, its URL once, then the HTTP status", async () => {
  const home = tempHome();
  const ran = await runRegistry(["list"], { home, server, ca, indexPath: "/gone.json" });
  removeDir(home);
  expect(ran.code).toBe(1);
  expect(ran.err).toEqual([`refused index ${server.origin}/gone.json: the server answered HTTP 404`]);
});

test("an unreachable index names its URL once; an entry's download still names the URL it tried", async () => {
  const home = tempHome();
  const closed = "https://127.0.0.1:1/index.json";
  const down = await runRegistry(["list"], { home, server, ca, registryUrl: closed });
  expect(down.err).toHaveLength(1);
  expect(down.err[0]).toStartWith(`refused index ${closed}: cannot fetch it: `);
  expect(down.err[0]!.split(closed)).toHaveLength(2);

  const body = "---\nname: gone\ndescription: Gone.\n---\nBody.\n";
  server.routes.set("/index.json", () =>
    json({ skills: [{ name: "gone", description: "Gone.", url: `${server.origin}/s/gone.md`, sha256: sha256(body) }], plugins: [] }),
  );
  const add = await runRegistry(["add", "gone", "--yes"], { home, server, ca });
  removeDir(home);
  expect(add.err).toEqual([`refused skill "gone": ${server.origin}/s/gone.md answered HTTP 404`]);
});
