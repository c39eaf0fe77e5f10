/**
 * The files of the programs that run as the person (their hooks, their MCP servers): no tool or
 * command of the model's may write them. Built before the sandbox that reads it; each service that
 * starts such programs adds its own source once it exists.
 */
export type ProgramList = {
  add(source: () => readonly string[]): void;
  files(): string[];
};

export function createProgramList(): ProgramList {
  const sources: (() => readonly string[])[] = [];
  return {
    add: (source) => void sources.push(source),
    files: () => sources.flatMap((source) => source()),
  };
}
