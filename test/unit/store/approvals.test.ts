import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvalsPath, definitionHash, openApprovals } from "../../../src/store/approvals.ts";

const dirs: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), "shiro-approvals-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("an approval is kept by its definition's hash, across runs, and a changed definition is not approved", async () => {
  const h = home();
  const warn: string[] = [];
  const first = await openApprovals({ home: h, save: true, warn: (l) => warn.push(l) });
  const def = { command: "node", args: ["server.js"] };
  await first.add("mcp-server", "/p", "db", definitionHash(def));
  const second = await openApprovals({ home: h, save: true, warn: (l) => warn.push(l) });
  expect(second.has("mcp-server", "/p", "db", definitionHash({ args: ["server.js"], command: "node" }))).toBe(true);
  expect(second.has("mcp-server", "/p", "db", definitionHash({ command: "node", args: ["evil.js"] }))).toBe(false);
  expect(second.has("mcp-server", "/other", "db", definitionHash(def))).toBe(false);
  expect(second.has("hook", "/p", "db", definitionHash(def))).toBe(false);
  // Approving a new definition replaces the old one.
  await second.add("mcp-server", "/p", "db", definitionHash({ command: "node", args: ["v2.js"] }));
  const third = await openApprovals({ home: h, save: true, warn: (l) => warn.push(l) });
  expect(third.has("mcp-server", "/p", "db", definitionHash(def))).toBe(false);
  expect(warn).toEqual([]);
});

test("a corrupt approvals file approves nothing, is warned once and left as it was", async () => {
  const h = home();
  writeFileSync(approvalsPath(h), "{oops");
  const warn: string[] = [];
  const approvals = await openApprovals({ home: h, save: true, warn: (l) => warn.push(l) });
  await approvals.add("hook", "/p", "hooks", "abc");
  expect(approvals.has("hook", "/p", "hooks", "abc")).toBe(true);
  expect(readFileSync(approvalsPath(h), "utf8")).toBe("{oops");
  expect(warn.length).toBe(1);
  expect(warn[0]).toContain(approvalsPath(h));
});
