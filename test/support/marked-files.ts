import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A value no other file holds: its presence anywhere (a request body, a session file) says where it leaked. */
export const marker = (tag: string) => `${tag}${randomBytes(8).toString("hex")}`;

/**
 * Writes files under `base`, each optionally holding a fresh marker (`text` is given it), and keeps
 * which file each marker came from. The dotfiles every realistic home has come with `dotfiles()`.
 */
export function markedFiles(base: string) {
  const markers = new Map<string, string>();
  const put = (rel: string, text: (m: string) => string, tag?: string) => {
    const m = tag ? marker(tag) : "";
    if (tag) markers.set(m, rel);
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text(m));
  };
  const dotfiles = () => {
    put("home/.bashrc", (m) => `# the person's own\nexport GH_TOKEN=${m}\n`, "leakbashrc");
    put("home/.npmrc", (m) => `//registry.npmjs.org/:_authToken=${m}\n`, "leaknpmrc");
    put("home/.profile", () => "# login shell\n");
  };
  return { markers, put, dotfiles };
}
