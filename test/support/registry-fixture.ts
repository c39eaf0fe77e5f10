import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { registryCommand, type RegistryIo } from "../../src/registry/registry-command.ts";
import type { TestCa, TestHttps } from "./https-server.ts";

export type Ran = { code: number; out: string[]; err: string[]; asked: string[] };

/** Runs the registry command in-process against a test server, capturing every line it prints. */
export async function runRegistry(
  argv: string[],
  setup: { home: string; server: TestHttps; ca: TestCa; indexPath?: string; registryUrl?: string; answer?: boolean; timeoutMs?: number },
): Promise<Ran> {
  const ran: Ran = { code: -1, out: [], err: [], asked: [] };
  const io: RegistryIo = {
    command: "shiro registry",
    out: (line) => ran.out.push(line),
    err: (line) => ran.err.push(line),
    home: setup.home,
    registryUrl: setup.registryUrl ?? `${setup.server.origin}${setup.indexPath ?? "/index.json"}`,
    fetchOptions: { tls: { ca: setup.ca.cert }, timeoutMs: setup.timeoutMs },
  };
  if (setup.answer !== undefined) {
    io.confirm = async (text) => {
      ran.asked.push(text);
      return setup.answer!;
    };
  }
  ran.code = await registryCommand(argv, io);
  return ran;
}

export const tempHome = (): string => mkdtempSync(join(tmpdir(), "shiro-registry-home-"));

/** Every file under `dir`, relative to it; [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

export const sha256 = (text: string): string => new Bun.CryptoHasher("sha256").update(text).digest("hex");

export const json = (value: unknown): Response => Response.json(value);
export const text = (body: string): Response => new Response(body);

export const skillText = (name: string, description = `The ${name} skill.`, body = `Do ${name} carefully.`): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

export const pluginText = (name: string, deny: unknown[] = [{ tools: ["bash"], commandPattern: "\\brm\\s+-rf\\b", reason: "no rm -rf" }]): string =>
  JSON.stringify({ name, description: `The ${name} plugin.`, deny });
