import { closeSync, openSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { mentionOf } from "../context/attach-mentions.ts";
import { mediaTypeOf } from "../files/image-of.ts";

// Longer than any path Linux opens: a paste of text, not of a path.
const PATH_MAX = 4096;

/** An image given in the prompt: the name its placeholder shows, and the `@` mention it stands for. */
export type PromptImage = { name: string; mention: string };

/**
 * A paste that is one path to an image file — a file dropped on the terminal, a path copied — as the
 * image it names, or undefined for any other paste. The path may come quoted as terminals and file
 * managers quote it (`'/a b.png'`, `/a\ b.png`, `file:///a%20b.png`); it is an image by its first bytes.
 */
export function pastedImage(text: string, cwd: string): PromptImage | undefined {
  const trimmed = text.trim();
  if (trimmed.length > PATH_MAX || trimmed.includes("\n")) return undefined;
  const path = unquoted(trimmed);
  if (path === undefined || path === "" || path.includes('"')) return undefined;
  const abs = resolve(cwd, path.startsWith("~/") ? join(homedir(), path.slice(2)) : path);
  return isImageFile(abs) ? promptImage(abs, cwd) : undefined;
}

/** The image at `path` as the prompt names it: inside `cwd` relative to it, else as it is. */
export function promptImage(path: string, cwd: string): PromptImage {
  const rel = relative(cwd, resolve(cwd, path));
  return { name: basename(path), mention: mentionOf(rel.startsWith("..") || isAbsolute(rel) ? resolve(cwd, path) : rel) };
}

function unquoted(text: string): string | undefined {
  if (text.startsWith("file://")) {
    try {
      return fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  const quote = /^(['"])(.*)\1$/s.exec(text);
  if (quote) return quote[2];
  return text.replace(/\\(.)/g, "$1");
}

function isImageFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    const fd = openSync(path, "r");
    try {
      const head = new Uint8Array(12);
      return mediaTypeOf(head.subarray(0, readSync(fd, head, 0, 12, 0))) !== undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
