/**
 * Reads a recorded Responses stream from test/fixtures/responses-api/ (one SSE `data:` JSON per
 * line) and splits it into responses, each ending at `response.completed` / `response.failed`.
 */
import { join } from "node:path";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";

export const fixturePath = (name: string) => join(import.meta.dir, "..", "fixtures", "responses-api", name);

export async function recordedResponses(name: string): Promise<ResponseStreamEvent[][]> {
  const lines = (await Bun.file(fixturePath(name)).text()).split("\n").filter((l) => l.trim() !== "");
  const responses: ResponseStreamEvent[][] = [[]];
  for (const line of lines) {
    const event = JSON.parse(line) as ResponseStreamEvent;
    responses.at(-1)!.push(event);
    if (event.type === "response.completed" || event.type === "response.failed") responses.push([]);
  }
  return responses.filter((r) => r.length > 0);
}

/** The bytes a server would send for these events. */
export const toSse = (events: readonly unknown[]): string =>
  events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
