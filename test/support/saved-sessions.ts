import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reduceSession } from "../../src/session/reduce-session.ts";
import { parseLog } from "../../src/session/session-log.ts";

/**
 * Every session log under `$SHIRO_HOME/sessions`, reduced (read as a resume would, torn line and all).
 * Typed loosely, as the parsed files these tests once read were: they pick fields by path.
 */
export function savedSessions(home: string): any[] {
  const dir = join(home, "sessions");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => {
      const parsed = parseLog(readFileSync(join(dir, n), "utf8"));
      if (parsed.damaged) throw new Error(`${n} is damaged at line ${parsed.damaged.line}: ${parsed.damaged.reason}`);
      return reduceSession(parsed.events);
    });
}
