import { closeSync, fchmodSync, fstatSync, lstatSync, readFileSync, realpathSync, writeSync } from "node:fs";
import { join, parse, relative, resolve, sep } from "node:path";
import { atCalls, type AtCalls, type Dir } from "./at-calls.ts";
import { displayPath, isInside, modelPath } from "../../files/project-paths.ts";
import { ToolError, type ToolContext } from "../tool.ts";
import { readThrough } from "./read-through.ts";

/** A file as it is on disk: its bytes and permission bits. */
export type FileOnDisk = { bytes: Uint8Array; mode: number };

/** A write waiting beside its file under a temp name: `commit` renames it into place, `discard` removes it. */
export type StagedWrite = { commit(): void; discard(): void };

/**
 * Where one file is, with its folder held open: reading, writing and removing it go through that
 * folder, never through the name again, so what changes is the file that was checked.
 */
export type FileSlot = {
  /** Where the file really is (no symlink in it). */
  readonly path: string;
  /** Its bytes and mode, or undefined when there is no such file. */
  read(): FileOnDisk | undefined;
  /** Writes `data` under a temp name in the file's folder (creating missing folders) with exactly `mode`; `temp` names it (an undo's journal knows it, to clean up after a crash). */
  stage(data: string | Uint8Array, mode: number, temp?: string): StagedWrite;
  /** Removes the file (nothing happens when it is already gone). */
  remove(): void;
  close(): void;
};

/** Why writing at a real path is refused whatever the rules say (a secret), or undefined. */
export type WriteRefusal = (realPath: string) => string | undefined;

const MAX_LINKS = 40;

/**
 * Opens the folder of `abs` one name at a time, each relative to the one before and never through a
 * symlink. A link on the way (or the file itself being one) is followed by starting over from its
 * target — but for a write a name inside the project may only lead inside it, and where it finally
 * lands must not be refused by `refuse`. A read may follow links anywhere: where it lands is what
 * `refuse` judges. Touches nothing: missing folders are only created by `stage`.
 */
export async function openSlot(root: string, abs: string, refuse?: WriteRefusal, purpose: "write" | "read" = "write", opts: { ownLink?: boolean } = {}): Promise<FileSlot> {
  const shown = displayPath(root, abs);
  if (abs.includes("\0")) throw new ToolError(`${JSON.stringify(shown)} contains a NUL character; no file can be named that.`);
  const at = await atCalls();
  const realRoot = realpathSync(root);
  const show = (real: string) => (isInside(real, realRoot) ? displayPath(realRoot, real) : real);
  const inProject = isInside(abs, root) || isInside(abs, realRoot);
  const confine = inProject && purpose === "write" ? realRoot : undefined;
  const unchanged = purpose === "write" ? " Nothing was changed." : "";
  let path = isInside(abs, root) ? join(realRoot, relative(root, abs)) : abs;
  for (let links = 0; links <= MAX_LINKS; links++) {
    const found = walk(at, confine ?? parse(path).root, path, shown, show, opts.ownLink === true);
    if ("slot" in found) {
      const reason = refuse?.(found.slot.path);
      if (reason === undefined) return found.slot;
      found.slot.close();
      throw new ToolError(`${shown} leads to ${show(found.slot.path)}, which may not be ${purpose === "write" ? "written" : "read"}: ${reason}${unchanged}`);
    }
    if (confine !== undefined && !isInside(found.next, confine)) {
      throw new ToolError(
        `${shown} leads outside the project: ${show(found.link)} is a link to ${found.target}. Nothing was changed; ` +
          "name the path it leads to if that file is meant (it is then judged as a path outside the project).",
      );
    }
    path = found.next;
  }
  throw new ToolError(`${shown} goes through more than ${MAX_LINKS} symlinks (a loop?).${unchanged}`);
}

/** The slot of a path the model gave, and the file in it (the slot is closed again when reading fails). */
export async function openFile(ctx: Pick<ToolContext, "root" | "writeRefused" | "files">, path: string) {
  const abs = modelPath(ctx.root, path);
  const slot = await openSlot(ctx.root, abs, ctx.writeRefused);
  const shown = displayPath(ctx.root, abs);
  try {
    return { slot, abs, shown, file: await readThrough(ctx, slot, shown) };
  } catch (err) {
    slot.close();
    throw err;
  }
}

type Walked = { slot: FileSlot } | { link: string; target: string; next: string };

const changedMeanwhile = (shown: string) => new ToolError(`${shown} was changed by something else meanwhile (a folder or the file became a link). Nothing was changed; try again.`);

/** `ownLink`: a link at the last name is the slot itself (an undo replaces or removes the link, never what it points to). */
function walk(at: AtCalls, base: string, path: string, shown: string, show: (real: string) => string, ownLink: boolean): Walked {
  const names = relative(base, path).split(sep).filter(Boolean);
  const name = names.pop();
  if (name === undefined) throw new ToolError(`${shown} is a directory, not a file. Use list_dir to see what it contains.`);
  let dir = at.openRoot(base);
  let dirPath = base;
  try {
    for (const [i, folder] of names.entries()) {
      let next: Dir | undefined;
      // Twice: a folder that was a link when opened may be a folder again when read as a link.
      for (let attempt = 0; next === undefined; attempt++) {
        try {
          next = at.openDir(dir, folder);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "ENOENT") return { slot: slot(at, dir, dirPath, names.slice(i), name, shown) };
          if (code !== "ENOTDIR" && code !== "ELOOP") throw err;
          const target = linkAt(at, dir, folder);
          if (target !== undefined) {
            at.close(dir);
            return { link: join(dirPath, folder), target, next: resolve(dirPath, target, ...names.slice(i + 1), name) };
          }
          // Twice neither a folder nor a link: a file — unless it keeps being swapped (a link, a folder, a link), which is a race.
          if (attempt > 0) throw lstatSync(join(dirPath, folder), { throwIfNoEntry: false })?.isFile() ? new ToolError(`${shown} cannot exist: ${show(join(dirPath, folder))} is a file, not a folder.`) : changedMeanwhile(shown);
        }
      }
      at.close(dir);
      dir = next;
      dirPath = join(dirPath, folder);
    }
    const target = ownLink ? undefined : linkAt(at, dir, name);
    if (target !== undefined) {
      at.close(dir);
      return { link: join(dirPath, name), target, next: resolve(dirPath, target) };
    }
    return { slot: slot(at, dir, dirPath, [], name, shown) };
  } catch (err) {
    at.close(dir);
    throw err;
  }
}

function linkAt(at: AtCalls, dir: Dir, name: string): string | undefined {
  try {
    return at.readLink(dir, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The slot for `name` in the open `dir`, below `missing` folders that do not exist yet. Owns `dir`. */
function slot(at: AtCalls, dir: Dir, dirPath: string, missing: string[], name: string, shown: string): FileSlot {
  const changed = () => changedMeanwhile(shown);
  // ENOENT inside a folder held open means the folder itself was removed or replaced meanwhile.
  const gone = (err: unknown) => ((err as NodeJS.ErrnoException).code === "ENOENT" ? changed() : err);
  return {
    path: join(dirPath, ...missing, name),
    read() {
      if (missing.length > 0) return undefined;
      let fd: number;
      try {
        fd = at.openRead(dir, name);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT") return undefined;
        if (code === "EISDIR") throw new ToolError(`${shown} is a directory, not a file. Use list_dir to see what it contains.`);
        if (code === "ELOOP") throw changed();
        throw err;
      }
      try {
        const info = fstatSync(fd);
        if (info.isDirectory()) throw new ToolError(`${shown} is a directory, not a file. Use list_dir to see what it contains.`);
        if (!info.isFile()) throw new ToolError(`${shown} is not a regular file (a device, socket or pipe); the file tools only change regular files.`);
        return { bytes: readFileSync(fd), mode: info.mode & 0o7777 };
      } finally {
        closeSync(fd);
      }
    },
    stage(data, mode, tempName) {
      let folder = dir;
      const opened: Dir[] = [];
      const closeOpened = () => opened.forEach((d) => at.close(d));
      try {
        for (const folderName of missing) {
          try {
            at.makeDir(folder, folderName);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
          }
          folder = at.openDir(folder, folderName);
          opened.push(folder);
        }
      } catch (err) {
        closeOpened();
        const code = (err as NodeJS.ErrnoException).code;
        throw code === "ENOTDIR" || code === "ELOOP" || code === "ENOENT" ? changed() : err;
      }
      const temp = tempName ?? `.shiro-${Bun.randomUUIDv7().slice(-12)}.tmp`;
      const discard = () => {
        try {
          at.unlink(folder, temp);
        } catch {
          // The temp file was never created: nothing to remove.
        }
        closeOpened();
      };
      try {
        const fd = at.create(folder, temp, 0o600);
        try {
          // Before any byte: the mode is exact (no umask), and right even where `create` could not pass it.
          fchmodSync(fd, mode);
          const bytes = typeof data === "string" ? Buffer.from(data) : data;
          for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
        } finally {
          closeSync(fd);
        }
      } catch (err) {
        discard();
        throw gone(err);
      }
      return {
        commit() {
          try {
            at.rename(folder, temp, name);
          } catch (err) {
            discard();
            throw gone(err);
          }
          closeOpened();
        },
        discard,
      };
    },
    remove() {
      if (missing.length > 0) return;
      try {
        at.unlink(dir, name);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    },
    close: () => at.close(dir),
  };
}
