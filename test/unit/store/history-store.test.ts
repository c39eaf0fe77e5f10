import { expect, test } from "bun:test";
import fs from "node:fs";
import { join } from "node:path";
import { openHistory } from "../../../src/store/history-store.ts";
import { tempDir } from "../../support/run-shiro.ts";

const tempHome = () => tempDir("history");

test("lines are saved per project and read back oldest first, without immediate repeats", async () => {
  const home = tempHome();
  const history = await openHistory(home, "/some/project");
  for (const line of ["first", "second", "second", "  "]) expect(await history.add(line)).toBeUndefined();
  expect((await openHistory(home, "/some/project")).entries).toEqual(["first", "second"]);
  expect((await openHistory(home, "/other/project")).entries).toEqual([]);
});

test("a history that cannot be written warns once and never stops a line", async () => {
  const home = tempHome();
  const history = await openHistory(home, "/some/project");
  // After start-up something takes the folder's place (as root, permissions would not stop the write).
  fs.writeFileSync(join(home, "history"), "a file where the folder should be");
  const warning = await history.add("first");
  expect(warning).toStartWith("prompt history not saved (");
  expect(warning).toEndWith("this session's lines stay in memory only");
  expect(await history.add("second")).toBeUndefined();
  expect(history.entries).toEqual(["first", "second"]);
  expect(fs.readFileSync(join(home, "history"), "utf8")).toBe("a file where the folder should be");
});

test("a corrupt history file is reported and left as it is", async () => {
  const home = tempHome();
  const first = await openHistory(home, "/p");
  await first.add("kept");
  const [file] = fs.readdirSync(join(home, "history"));
  fs.writeFileSync(join(home, "history", file!), "{not json");
  const history = await openHistory(home, "/p");
  expect(history.warning).toStartWith("prompt history skipped: ");
  expect(await history.add("new line")).toBeUndefined();
  expect(fs.readFileSync(join(home, "history", file!), "utf8")).toBe("{not json");
});
