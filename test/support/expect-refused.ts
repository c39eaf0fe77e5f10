import { expect } from "bun:test";
import { FINAL, type JobResult } from "./scripted-job.ts";
import type { PlannedCall } from "./scripts.ts";

export const GUARD_SECRET = /^Denied: guard: secret file .+ — the guard never lets anything write secret files; --yolo and permission rules cannot change this\.$/;
export const GUARD_DESTRUCTIVE = /^Denied: guard: destructive command .+ — the guard never runs this; --yolo and permission rules cannot change this\. Ask the user to run it themselves if it is really wanted\.$/;

/**
 * Each call, in order, got a refusal matching `refusal`, first seen by the model in the request right
 * after the call; then the model's final answer reached stdout and the run exited 4.
 */
export function expectEveryCallRefused(job: JobResult, calls: PlannedCall[], refusal = GUARD_SECRET): void {
  expect(job.outputs.map((o) => [o.name, o.arguments])).toEqual(calls.map((c) => [c.name, c.arguments]));
  job.outputs.forEach((o, k) => {
    expect({ call: o.arguments, output: o.output }).toEqual({ call: o.arguments, output: expect.stringMatching(refusal) });
    expect(o.request).toBe(k + 1);
  });
  expect(job.requests).toHaveLength(calls.length + 1);
  expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
}
