import { expect, test } from "bun:test";
import { refusedWrite } from "../../../src/store/writable-dir.ts";

const fsError = (code: string, path?: string) => Object.assign(new Error(code), { code, syscall: "open", ...(path ? { path } : {}) });
const STORE = "/home/p/.shiro-neko/checkpoints";

test("a full, read-only or over-quota disk, or permission denied in the store, is a home that cannot be written", () => {
  for (const code of ["ENOSPC", "EDQUOT", "EROFS"]) expect(refusedWrite(fsError(code), STORE)).toBe(true);
  for (const code of ["EACCES", "EPERM"]) expect(refusedWrite(fsError(code, `${STORE}/objects/ab`), STORE)).toBe(true);
});

test("a race with another shiro in the store (a file gone or there already), and a project file denied, are not", () => {
  for (const code of ["ENOENT", "EEXIST", "ENOTEMPTY"]) expect(refusedWrite(fsError(code, `${STORE}/objects/ab`), STORE)).toBe(false);
  expect(refusedWrite(fsError("EACCES", "/home/p/project/secret.txt"), STORE)).toBe(false);
  expect(refusedWrite(new Error("a bug"), STORE)).toBe(false);
});
