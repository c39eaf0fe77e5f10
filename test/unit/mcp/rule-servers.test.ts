import { expect, test } from "bun:test";
import { unknownServerRules } from "../../../src/mcp/rule-servers.ts";
import type { Rule } from "../../../src/guard/rules.ts";

const flag = (decision: "allow" | "deny", tool: string): Rule => ({ decision, tool, pattern: "**", source: `--${decision}` });

test("a flag naming a server no one configured is said, with the one meant; known servers, globs and config rules are not", () => {
  const servers = ["github", "my-db"];
  const lines = unknownServerRules(
    [
      flag("deny", "mcp__gihub__*"),
      flag("allow", "mcp__github__create_issue"),
      flag("allow", "mcp__my-db__*"),
      flag("allow", "mcp__git*"),
      flag("deny", "mcp__*"),
      flag("allow", "bash"),
      { decision: "allow", tool: "mcp__elsewhere__*", pattern: "**", source: "config.json" },
      flag("allow", "mcp__jira__search"),
    ],
    servers,
  );
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('"mcp__gihub__*"');
  expect(lines[0]).toContain('"github"');
  expect(lines[1]).toContain('"jira"');
  expect(unknownServerRules([flag("allow", "mcp__x__y")], [])[0]).toContain("none is configured");
});
