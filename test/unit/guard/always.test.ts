/** What "always" offers: the program and its subcommand, never a shell keyword, the exact command when it destroys. */
import { afterAll, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { diskEnv } from "../../../src/guard/resolve-path.ts";
import { alwaysPatternFor } from "../../../src/guard/session-allows.ts";
import type { GateCall } from "../../../src/guard/verdict.ts";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-always-root-")));
const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-always-home-")));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});
const offered = (command: string) => alwaysPatternFor({ tool: "bash", kind: "exec", args: {}, root, subject: { command } } satisfies GateCall, diskEnv(root, home));

const table: [string, string[]][] = [
  // loops and conditionals: their keywords are no commands; what they run is
  ["for i in $(seq 3); do echo $i; done", ["seq *", "echo *"]],
  ["for f in *.ts; do wc -l $f; done", ["wc *"]],
  ["while true; do sleep 1; done", ["sleep *"]],
  ["if [ -f x ]; then cat x; else echo none; fi", ["cat *", "echo *"]],
  ["cd sub && npm test || true", ["npm test *"]],
  // program and subcommand
  ["git log --oneline -5", ["git log *"]],
  ["git -C sub -c color.ui=never log", ["git log *"]],
  ["/usr/bin/git status", ["git status *"]],
  ["npm test -- --watch", ["npm test *"]],
  ["npm run build", ["npm run build *"]],
  ["bun run typecheck", ["bun run typecheck *"]],
  ["bun test test/unit", ["bun test *"]],
  ["npx tsc --noEmit", ["npx tsc *"]],
  ["python3 tools/gen.py --fast", ["python3 tools/gen.py *"]],
  ["python3 -m pytest -q", ["python3 -m pytest *"]],
  ["bash scripts/ci.sh", ["bash scripts/ci.sh *"]],
  ["ls -la src", ["ls *"]],
  ["timeout 5 make check", ["make check *"]],
  ["sudo apt-get install jq", ["sudo apt-get install *"]],
  ["FOO=1 npm test", ["FOO=1 npm test *"]],
  // a file a command writes by redirection is offered for write_file
  ["ls > out.txt", ["ls *", "write_file out.txt"]],
  ["cp a.txt b.txt", ["cp *"]],
  // exactly the command: it destroys, runs inline code, or names no subcommand
  ["rm a.txt", ["rm a.txt"]],
  ["/bin/rm -f a.txt", ["rm -f a.txt"]],
  ["sudo rm -r build", ["sudo rm -r build"]],
  ["mv a b", ["mv a b"]],
  ["chmod +x run.sh", ["chmod +x run.sh"]],
  ["find . -name '*.o' -delete", ["find . -name \\*.o -delete"]],
  ["git push origin main", ["git push origin main"]],
  ["git reset HEAD~1", ["git reset HEAD~1"]],
  ["git clean -n", ["git clean -n"]],
  ["docker rm web", ["docker rm web"]],
  ["git --version", ["git --version"]],
  ["python3 -c 'print(1)'", ["python3 -c print(1)"]],
  ["bash -c 'npm test'", ["bash -c npm test", "npm test *"]],
];
test.each(table)("%p offers %p", (command, expected) => {
  expect(offered(command)).toEqual(expected);
});
