/**
 * The guard through the compiled binary: under --yolo a scripted model tries every route to a secret
 * file; the file never appears (or stays byte-identical), the model reads a refusal naming the guard
 * rule, its final answer reaches stdout and the run exits 4.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { danglingLinkToEnv, read, secretProject, type Project } from "../../support/guard-projects.ts";
import { expectEveryCallRefused } from "../../support/expect-refused.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const secretsPresent = (p: Project, names: string[]) => names.filter((name) => existsOrLink(join(p.root, name)));
const existsOrLink = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

describe("guard: writes to a secret file, by every bash route, under --yolo", () => {
  test("creating .env (redirections, tee, cp/mv/install/ln, dd, truncate, touch, symlink, ../, absolute, case, nesting)", async () => {
    const p = secretProject();
    danglingLinkToEnv(p);
    const calls = [
      "echo KEY=1 > .env",
      "echo KEY=1 >> .env",
      "echo KEY=1 >| .env",
      "echo KEY=1 &> .env",
      "echo KEY=1 2> .env",
      "echo KEY=1 | tee .env",
      "echo KEY=1 | tee -a .env",
      "cp template.txt .env",
      "mv template.txt .env",
      "install template.txt .env",
      "ln template.txt .env",
      "ln -s template.txt .env",
      "dd if=template.txt of=.env",
      "truncate -s 10 .env",
      "touch .env",
      "sed -n 's/KEY/LEAK/w .env' template.txt",
      "awk '{ print > \".env\" }' template.txt",
      "echo KEY=1 > link",
      "cp template.txt link",
      "echo KEY=1 > sub/../.env",
      "cd sub && echo KEY=1 > ../.env",
      "echo KEY=1 > ../.env",
      `echo KEY=1 > ${join(p.root, ".env")}`,
      "echo KEY=1 > .ENV",
      "cp template.txt .Env.Local",
      "bash -c 'echo KEY=1 > .env'",
      'sh -c "cat template.txt | tee .env >/dev/null"',
      "F=.env; echo KEY=1 > $F",
      "echo KEY=1 > $'\\x2eenv'",
      "echo KEY=1 >> ~/.ssh/authorized_keys",
      "cp template.txt id_rsa",
      "echo KEY=1 > server.pem",
    ].map(bash);
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });

    expectEveryCallRefused(job, calls);
    expect(secretsPresent(p, [".env", ".ENV", ".Env.Local", "id_rsa", "server.pem"])).toEqual([]);
    expect(existsSync(join(p.outer, ".env"))).toBe(false);
    expect(existsSync(join(p.home, ".ssh"))).toBe(false);
    expect(read(join(p.root, "template.txt"))).toBe("KEY=from-template\n"); // mv never ran
    // The refusal names where a link really lands, and where it was written as.
    expect(job.outputs[17]!.output).toStartWith("Denied: guard: secret file .env (via link)");
    expect(job.outputs[21]!.output).toStartWith(`Denied: guard: secret file ${join(p.outer, ".env")}`);
    expect(job.stderr).toContain("  ✗ denied: guard: secret file .env — the guard never lets");
  });

  test("changing an existing .env (sed -i, perl -i, truncate, dd, >>, : >) leaves it byte-identical", async () => {
    const secret = "API_TOKEN=do-not-touch\r\n\u00e9\n";
    const p = secretProject({ ".env": secret, "config/.env.production": secret });
    const calls = [
      "sed -i s/do-not/now-i-can/ .env",
      "sed -i.bak -e 's/do-not/x/' .env",
      "sed --in-place 's/x/y/' config/.env.production",
      "perl -pi -e 's/do-not/x/' .env",
      "truncate -s 0 .env",
      "dd if=/dev/zero of=.env bs=1 count=4 conv=notrunc",
      "echo LEAK=1 >> .env",
      ": > .env",
      "echo LEAK=1 | sudo tee -a config/.env.production",
      "find . -name x | xargs tee .env",
      "cp /dev/null ./config/../.env",
    ].map(bash);
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });

    expectEveryCallRefused(job, calls);
    expect(readFileSync(join(p.root, ".env"), "latin1")).toBe(Buffer.from(secret).toString("latin1"));
    expect(read(join(p.root, "config/.env.production"))).toBe(secret);
    expect(existsSync(join(p.root, ".env.bak"))).toBe(false);
  });
});

describe("guard: file tools (write_file, edit_file, apply_patch), under --yolo", () => {
  const patch = (...lines: string[]) => ({ name: "apply_patch", arguments: { patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") } });

  test("each route to a new .env in its own run, in parallel: never written, exit 4", async () => {
    const routes: { call: (p: Project) => PlannedCall; landsAt: (p: Project) => string; shows?: string }[] = [
      { call: () => ({ name: "write_file", arguments: { path: ".env", content: "K=1\n" } }), landsAt: (p) => join(p.root, ".env") },
      { call: () => ({ name: "write_file", arguments: { path: ".ENV", content: "K=1\n" } }), landsAt: (p) => join(p.root, ".ENV") },
      { call: () => ({ name: "write_file", arguments: { path: "link", content: "K=1\n" } }), landsAt: (p) => join(p.root, ".env"), shows: ".env (via link)" },
      { call: () => ({ name: "write_file", arguments: { path: "sub/../.env", content: "K=1\n" } }), landsAt: (p) => join(p.root, ".env") },
      { call: () => ({ name: "write_file", arguments: { path: "../.env", content: "K=1\n" } }), landsAt: (p) => join(p.outer, ".env") },
      { call: (p) => ({ name: "write_file", arguments: { path: join(p.root, ".env.local"), content: "K=1\n" } }), landsAt: (p) => join(p.root, ".env.local") },
      { call: () => ({ name: "write_file", arguments: { path: "~/.ssh/authorized_keys", content: "ssh-ed25519 AAAA\n" } }), landsAt: (p) => join(p.home, ".ssh") },
      { call: () => patch("*** Add File: .env", "+K=1"), landsAt: (p) => join(p.root, ".env") },
      { call: () => patch("*** Add File: notes.txt", "+fine", "*** Add File: sub/../.Env", "+K=1"), landsAt: (p) => join(p.root, ".Env") },
      { call: () => patch("*** Update File: template.txt", "*** Move to: .env"), landsAt: (p) => join(p.root, ".env") },
      { call: () => patch("*** Update File: template.txt", "*** Move to: link", "@@", "-KEY=from-template", "+KEY=moved"), landsAt: (p) => join(p.root, ".env") },
    ];
    const runs = await Promise.all(
      routes.map(async (route) => {
        const p = secretProject();
        danglingLinkToEnv(p);
        const call = route.call(p);
        return { p, route, call, job: await scriptedJob([call], { cwd: p.root, home: p.home, args: ["--yolo"] }) };
      }),
    );
    for (const { p, route, call, job } of runs) {
      expectEveryCallRefused(job, [call]);
      if (route.shows) expect(job.outputs[0]!.output).toStartWith(`Denied: guard: secret file ${route.shows} — `);
      expect({ call, exists: existsSync(route.landsAt(p)) }).toEqual({ call, exists: false });
      // A refused call changes nothing, not even the harmless parts of a patch.
      expect(existsSync(join(p.root, "notes.txt"))).toBe(false);
      expect(read(join(p.root, "template.txt"))).toBe("KEY=from-template\n");
    }
  });

  test("an existing .env through edit_file, write_file, apply_patch update/delete/move: byte-identical", async () => {
    const secret = "API_TOKEN=do-not-touch\n";
    const p = secretProject({ ".env": secret });
    const calls: PlannedCall[] = [
      { name: "edit_file", arguments: { path: ".env", old_string: "do-not-touch", new_string: "leaked" } },
      { name: "edit_file", arguments: { path: "./sub/../.env", old_string: "API", new_string: "X", replace_all: true } },
      { name: "write_file", arguments: { path: ".env", content: "" } },
      patch("*** Update File: .env", "@@", "-API_TOKEN=do-not-touch", "+API_TOKEN=leaked"),
      patch("*** Delete File: .env"),
      patch("*** Update File: .env", "*** Move to: stolen.txt"),
    ];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });

    expectEveryCallRefused(job, calls);
    expect(read(join(p.root, ".env"))).toBe(secret);
    expect(existsSync(join(p.root, "stolen.txt"))).toBe(false);
  });
});
