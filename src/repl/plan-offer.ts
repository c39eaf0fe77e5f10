import type { Agent } from "../agent/agent.ts";
import { PLAN_ACCEPTED } from "../agent/plan-mode.ts";
import { runStateOf } from "../session/run-state.ts";

export const PLAN_OFFER = "Go ahead with this plan? (y = leave plan mode and do it, or type to refine)";

type Offer = {
  agent: Agent;
  /** Lines typed during the turn wait to run: they are the person's answer already. */
  queued: () => boolean;
  ask: (question: string) => Promise<boolean>;
  print: (text: string) => void;
  /** Runs the turn that carries the plan out. */
  run: (prompt: string) => Promise<void>;
};

/**
 * After a turn that answered in plan mode: y leaves plan mode and has the plan carried out in the same
 * session; anything typed instead declines, and is the start of the reply that refines the plan.
 */
export async function offerPlan(o: Offer): Promise<void> {
  if (o.agent.mode !== "plan" || o.queued() || runStateOf(o.agent.session) !== "answered") return;
  if (!(await o.ask(PLAN_OFFER))) return;
  o.agent.setMode("default");
  o.print("· plan accepted: plan mode is off, every tool is offered again");
  await o.run(PLAN_ACCEPTED);
}
