import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Check, GateCall } from "../../../src/guard/verdict.ts";
import { commitInstall } from "../../../src/registry/install.ts";
import { installedDir } from "../../../src/registry/installed-paths.ts";
import { livePluginChecks } from "../../../src/registry/live-plugin-checks.ts";
import { removeInstalled } from "../../../src/registry/remove.ts";
import { validateBody } from "../../../src/registry/validate-body.ts";
import { pluginText, removeDir, sha256, tempHome } from "../../support/registry-fixture.ts";

let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => removeDir(home));

async function install(name: string, commandPattern: string) {
  const text = pluginText(name, [{ tools: ["bash"], commandPattern, reason: `no ${name}` }]);
  const entry = { name, description: "d", url: `https://registry.example/${name}.json` };
  const body = validateBody("plugin", entry, new TextEncoder().encode(text));
  await commitInstall(home, { body, origin: { kind: "plugin", name, indexUrl: "https://registry.example/i.json", entryUrl: entry.url, sha256: sha256(text), installedAt: new Date().toISOString() } });
}

const bash = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: { command }, subject: { command }, root: "/project" });
const reasons = (checks: Check[], command: string) =>
  checks.flatMap((check) => {
    const verdict = check(bash(command));
    return verdict?.decision === "deny" ? [verdict.reason] : [];
  });

test("a plugin installed or removed after the session started applies from the next refresh, in the same array", async () => {
  const live = await livePluginChecks(home);
  const held = live.checks; // what the permission chain holds
  expect(held).toHaveLength(0);

  await install("publish", "\\bnpm\\s+publish\\b");
  expect(reasons(held, "npm publish")).toEqual([]); // not before a refresh…
  await live.refresh();
  expect(reasons(held, "npm publish")).toEqual(["plugin publish: no publish"]); // …and at once after it

  await install("drop", "\\bdropdb\\b");
  await removeInstalled(home, "plugin", "publish");
  await live.refresh();
  expect(reasons(held, "npm publish")).toEqual([]);
  expect(reasons(held, "dropdb prod")).toEqual(["plugin drop: no drop"]);
  expect(live.checks).toBe(held);
});

test("an unchanged folder is not reloaded; a bad file warns once, not on every call", async () => {
  await install("drop", "\\bdropdb\\b");
  writeFileSync(join(installedDir(home, "plugin"), "broken.json"), "{ not json");
  const warnings: string[] = [];
  const live = await livePluginChecks(home, (line) => warnings.push(line));
  await Promise.all([live.refresh(), live.refresh(), live.refresh()]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("broken.json");
  expect(live.checks).toHaveLength(1);
});
