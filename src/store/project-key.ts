/** The per-project file name used by history and memory: first 16 hex of sha256(project path). */
export const projectKey = (projectPath: string): string => new Bun.CryptoHasher("sha256").update(projectPath).digest("hex").slice(0, 16);
