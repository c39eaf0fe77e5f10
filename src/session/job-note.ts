/** How a background job that ended by itself is told to the model, in the request after it ended. */
export type JobEnded = { id: number; command: string; how: "exit" | "timeout"; code: number };

// A command may be a script: the note names it by its first line, clipped.
const NAMED_CHARS = 80;

/** The user message a `job` event becomes: shiro speaking, not the person (so it says so). */
export function jobNote(job: JobEnded): string {
  const line = job.command.split("\n")[0]!;
  const named = line.length > NAMED_CHARS || line !== job.command ? `${line.slice(0, NAMED_CHARS)}…` : line;
  const how = job.how === "timeout" ? "reached its timeout_ms and was killed" : `ended by itself with exit code ${job.code}`;
  return `(shiro, not the person) Background job ${job.id} (\`${named}\`) ${how}; bash_output with id ${job.id} shows what it printed since the last read.`;
}
