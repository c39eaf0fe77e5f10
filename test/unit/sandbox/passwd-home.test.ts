import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { passwdHome } from "../../../src/sandbox/passwd-home.ts";
import { tempDir } from "../../support/run-shiro.ts";

test("the home the system records for the uid, whatever HOME says; a uid it does not list falls back", () => {
  const passwd = join(tempDir("passwd"), "passwd");
  writeFileSync(passwd, "root:x:0:0:root:/root:/bin/bash\nrunner:x:1001:1001::/home/runner:/bin/bash\nbroken line\n");
  const home = process.env.HOME;
  process.env.HOME = "/elsewhere";
  try {
    expect(passwdHome(1001, passwd)).toBe("/home/runner");
    expect(passwdHome(0, passwd)).toBe("/root");
    expect(passwdHome(4242, join(tempDir("none"), "missing"))).toBeDefined(); // userInfo's answer
  } finally {
    process.env.HOME = home;
  }
});
