/** How a background job that ended by itself is told to the model, in the request after it ended. */
export type JobEnded = { id: number; command: string; how: "exit" | "timeout"; code: number };

// A command may be a script: the note names it by its first line, clipped.
const NAMED_CHARS = 80;

/** A job's command in one line: its first, clipped to `max` characters, `…` where anything was left out. */
export function namedCommand(command: string, max = NAMED_CHARS): string {
  const line = command.split("\n")[0]!;
  return line.length > max || line !== command ? `${line.slice(0, max)}…` : line;
}

/** The user message a `job` event becomes: shiro speaking, not the person (so it says so). */
export function jobNote(job: JobEnded): string {
  const named = namedCommand(job.command);
  const how = job.how === "timeout" ? "reached its timeout_ms and was killed" : `ended by itself with exit code ${job.code}`;
  return `(shiro, not the person) Background job ${job.id} (\`${named}\`) ${how}; bash_output with id ${job.id} shows what it printed since the last read.`;
}
