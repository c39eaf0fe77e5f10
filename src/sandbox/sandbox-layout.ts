import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../files/project-paths.ts";

/**
 * Toolchains that live in the home, shown read-only inside the sandbox though the home is hidden: a
 * command still finds `cargo`, `rustc`, `nvm`'s node, `pyenv`'s python, `bun`, `~/.local/bin` tools.
 * Programs and toolchains only — no caches or settings, which hold tokens (`~/.cargo/credentials`).
 */
export const TOOL_FOLDERS: readonly string[] = [".cargo/bin", ".rustup", ".nvm", ".pyenv", ".bun/bin", ".local/bin", ".deno/bin", ".volta", ".asdf", "go/bin", ".sdkman/candidates"];

// Folders the system needs whole: a project's parent among them (/usr/src/proj, /opt/proj) is not hidden.
const SYSTEM = ["/usr", "/etc", "/opt", "/var", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/nix", "/gnu", "/snap", "/proc", "/sys", "/dev", "/run", "/boot", "/tmp"];

export type Layout = { hide: string[]; readable: string[] };

/**
 * Which folders a command sees as empty, and which it sees again inside them: the person's home(s) and
 * the project's parent (its siblings, and a `.env` beside it) hidden, the tool folders and `readable`
 * shown read-only; /run hidden when offline (it holds the session bus, docker.sock, agent sockets).
 * A folder holding the project is hidden only above it; the project, added folders and tools are bound again.
 */
export function sandboxLayout(o: { root: string; top?: string; homes: readonly string[]; network: boolean; readable: readonly string[] }): Layout {
  // Shown from the repository's top (read-only above the root) when shiro started below it; hidden beyond.
  const top = o.top ?? o.root;
  const parent = dirname(top);
  const candidates = [...o.homes.filter((h) => h !== top && !isInside(h, top)), ...(parent !== "/" && !isSystem(parent) ? [parent] : []), ...(o.network ? [] : ["/run"])];
  // Outermost first; one inside another hidden folder is hidden with it.
  const sorted = [...new Set(candidates)].sort((a, b) => a.length - b.length);
  const hide = sorted.filter((dir, i) => !sorted.slice(0, i).some((outer) => isInside(dir, outer)) && !isInside(dir, "/tmp"));
  const tools = o.homes.flatMap((home) => TOOL_FOLDERS.map((f) => join(home, f))).filter((dir) => existsSync(dir));
  // One inside the project is visible already (and binding it again would undo the project's own level).
  const readable = [...new Set([...(top === o.root ? [] : [top]), ...tools, ...o.readable])].filter((dir) => !isInside(dir, o.root));
  return { hide, readable };
}

const isSystem = (dir: string) => SYSTEM.some((sys) => isInside(dir, sys) || isInside(sys, dir));
