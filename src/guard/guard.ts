import { homedir } from "node:os";
import { join } from "node:path";
import { isInside } from "../files/project-paths.ts";
import { destructiveRule, writesDevice } from "./destructive.ts";
import { diskFs, displayPath, resolvePath, type PathEnv, type PathFs } from "./resolve-path.ts";
import type { SecretNames } from "./secret-names.ts";
import { globMayNameSecret, isSecret } from "./secret-path.ts";
import { gitSecretRead } from "./git-secret-read.ts";
import { shellCommands } from "./shell-commands.ts";
import { writeTargets } from "./shell-writes.ts";
import type { Check, Verdict } from "./verdict.ts";

const SECRET_WHY = "the guard never lets anything write secret files; --yolo and permission rules cannot change this";
const GIT_WHY = "the guard never lets git show a secret file out of history or the index; --yolo and permission rules cannot change this";
const SEALED_WHY = "shiro's checkpoints hold copies of every file, secrets too: no tool reads or writes them, whatever the rules say";
const DESTRUCTIVE_WHY = "the guard never runs this; --yolo and permission rules cannot change this. Ask the user to run it themselves if it is really wanted";

/**
 * The always-on link of the chain: refuses writes to secret files by any route (file tools, redirections,
 * tee, cp/mv, sed -i, dd…, however nested or quoted, through symlinks and in any letter case), git
 * showing a secret file out of history (`git show HEAD:.env`), and commands that destroy what cannot be recovered. It never allows: it only refuses or has no opinion.
 */
export function createGuard(opts: { home?: string; fs?: PathFs; secrets?: SecretNames; shiroHome?: string } = {}): Check {
  const home = opts.home ?? homedir();
  const fs = opts.fs ?? diskFs;
  const sealed = opts.shiroHome === undefined ? [] : sealedPlaces(opts.shiroHome, fs);
  return (call) => {
    const env: PathEnv = { root: call.root, home, fs, secrets: opts.secrets };
    if (call.kind === "meta") return undefined;
    for (const path of sealed.length ? (call.subject.paths ?? []) : []) {
      const resolved = resolvePath(path, env, env.root);
      const place = sealed.find((dir) => isInside(resolved.real, dir) || isInside(resolved.absolute, dir));
      if (place) return deny("checkpoint store", displayPath(resolved.absolute, env), SEALED_WHY);
    }
    if (call.kind === "write") {
      for (const path of call.subject.paths ?? []) {
        const refusal = secretWrite(path, env, env.root);
        if (refusal) return refusal;
      }
    }
    return call.subject.command === undefined ? undefined : judgeCommand(call.subject.command, env);
  };
}

/** The checkpoint store and what `undo --force` kept: sealed to every tool (the sandbox hides them from commands). */
function sealedPlaces(shiroHome: string, fs: PathFs): string[] {
  const homes = [...new Set([shiroHome, fs.realpath(shiroHome) ?? shiroHome])];
  return homes.flatMap((dir) => [join(dir, "checkpoints"), join(dir, "undo-kept")]);
}

function judgeCommand(command: string, env: PathEnv): Verdict | undefined {
  const commands = shellCommands(command, { cwd: env.root, home: env.home });
  const scripts = [command, ...commands.flatMap((c) => c.words)];
  const bomb = scripts.find(isForkBomb);
  if (bomb !== undefined) return deny("destructive command", "fork bomb", DESTRUCTIVE_WHY);
  for (const cmd of commands) {
    for (const target of writeTargets(cmd, (p) => env.fs.isDirectory(resolvePath(p, env, cmd.cwd).real))) {
      const refusal = secretWrite(target.path, env, cmd.cwd) ?? (globMayNameSecret(target.path, env.secrets) ? deny("secret file", target.path, SECRET_WHY) : undefined);
      if (refusal) return refusal;
      const device = resolvePath(target.path, env, cmd.cwd).real;
      if (writesDevice(device)) return deny("destructive command", `${target.via}${target.via.endsWith("=") ? "" : " "}${device}`, DESTRUCTIVE_WHY);
    }
    const fromGit = gitSecretRead(cmd, env);
    if (fromGit !== undefined) return deny("secret file read from git:", fromGit, GIT_WHY);
    const rule = destructiveRule(cmd, { root: env.root, home: env.home });
    if (rule !== undefined) return deny("destructive command", rule, DESTRUCTIVE_WHY);
  }
  return undefined;
}

function secretWrite(path: string, env: PathEnv, cwd: string): Verdict | undefined {
  const resolved = resolvePath(path, env, cwd);
  if (!isSecret(resolved, env.secrets)) return undefined;
  const written = displayPath(resolved.absolute, env);
  const real = displayPath(resolved.real, env);
  return deny("secret file", written === real ? written : `${real} (via ${written})`, SECRET_WHY);
}

function deny(what: string, subject: string, why: string): Verdict {
  const rule = `guard: ${what} ${subject}`;
  return { decision: "deny", rule, reason: `${rule} — ${why}.` };
}

/** A function that calls itself twice through a pipe in the background: `:(){ :|:& };:` or any renaming. */
export function isForkBomb(script: string): boolean {
  const definitions = /(?:function\s+)?([^\s(){};|&<>]+)\s*(?:\(\s*\))?\s*\{([^}]*)\}/g;
  for (const [, name, body] of script.matchAll(definitions)) {
    const self = name!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`(^|[\\s;&|])${self}\\s*\\|\\s*${self}(\\s|&|;|$)`).test(body!) && body!.includes("&")) return true;
  }
  return false;
}
