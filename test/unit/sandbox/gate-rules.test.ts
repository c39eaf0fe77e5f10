import { expect, test } from "bun:test";
import { changeRefusal, moveRefusal, readRefusal, type GateRules } from "../../../src/sandbox/gate/gate-rules.ts";
import { translate } from "../../../src/sandbox/gate/process-paths.ts";
import { privateHomeEnv } from "../../../src/sandbox/private-home.ts";

const rules: GateRules = { secretIds: new Set(["1:42"]), masked: ["/p/keys"], readOnly: ["/p/.git/hooks", "/p/.git/config", "/p/.mcp.json"] };
const EACCES = 13;
const EROFS = 30;
const EBUSY = 16;

test("a secret is known by its identity wherever it is named; a masked folder's contents by path", () => {
  expect(readRefusal(rules, "1:42", "/p/anything/hl")).toBe(EACCES); // a hard link to the secret
  expect(readRefusal(rules, "1:43", "/p/keys/id")).toBe(EACCES);
  expect(readRefusal(rules, "1:43", "/p/keys-not")).toBe(0);
  expect(readRefusal(rules, "1:43", undefined)).toBe(0);
});

test("what runs later stays as it is: written, made in or replaced — read-only; a secret — no access", () => {
  expect(changeRefusal(rules, "/p/.git/hooks/pre-commit")).toBe(EROFS);
  expect(changeRefusal(rules, "/p/.git/config")).toBe(EROFS);
  expect(changeRefusal(rules, "/p/.git/index.lock")).toBe(0);
  expect(changeRefusal(rules, "/p/dist")).toBe(0);
  expect(changeRefusal(rules, "/p/src/x", "1:42")).toBe(EACCES);
});

test("a folder holding a kept place cannot be moved away or removed; its siblings can", () => {
  expect(moveRefusal(rules, "/p/.git")).toBe(EBUSY);
  expect(moveRefusal(rules, "/p")).toBe(EBUSY);
  expect(moveRefusal(rules, "/p/.gitignore")).toBe(0);
  expect(moveRefusal(rules, "/p/.git/hooks")).toBe(EROFS);
});

test("/proc/self, /dev/fd and the standard streams are the process's own", () => {
  expect(translate(7, "/dev/stdout")).toEqual({ prefix: "/proc/7/fd/1", rest: "" });
  expect(translate(7, "/dev/fd/63")).toEqual({ prefix: "/proc/7/fd/63", rest: "" });
  expect(translate(7, "/proc/self/fd/3/sub/file")).toEqual({ prefix: "/proc/7/fd/3", rest: "sub/file" });
  expect(translate(7, "/proc/self/status")).toEqual({ prefix: "/proc/7", rest: "status" });
  expect(translate(7, "/proc/thread-self/cwd/a")).toEqual({ prefix: "/proc/7/cwd", rest: "a" });
  expect(translate(7, "/proc/selfish")).toBeUndefined();
  expect(translate(7, "README")).toBeUndefined();
});

test("the private home: HOME and the places named in the hidden home move into it; the tool folders, the project and lists stay", () => {
  const home = { real: "/home/pat", private: "/tmp/c/home", shown: ["/home/pat/.cargo/bin", "/home/pat/.rustup"], kept: ["/home/pat/code/proj"] };
  const env = privateHomeEnv(
    { HOME: "/home/pat", XDG_CONFIG_HOME: "/home/pat/.config", CARGO_HOME: "/home/pat/.cargo", RUSTUP_HOME: "/home/pat/.rustup", PATH: "/home/pat/.cargo/bin:/usr/bin", NAME: "home", SHIRO_PROJECT_DIR: "/home/pat/code/proj", OTHER: "/home/pat/code/other" },
    home,
  );
  expect(env).toEqual({
    HOME: "/tmp/c/home",
    XDG_CONFIG_HOME: "/tmp/c/home/.config",
    CARGO_HOME: "/tmp/c/home/.cargo",
    RUSTUP_HOME: "/home/pat/.rustup",
    PATH: "/home/pat/.cargo/bin:/usr/bin",
    NAME: "home",
    SHIRO_PROJECT_DIR: "/home/pat/code/proj",
    OTHER: "/tmp/c/home/code/other",
  });
});
