import type { EndStatus } from "../loop/events.ts";
import type { Usage } from "../session/messages.ts";

/** How a print-mode run ended: its exit code, the agent's end, the answer, the steps and what they used. */
export type PrintOutcome = { code: number; status: EndStatus; text: string; steps: number; usage: Usage };
