import type { AgentMode } from "../session/agent-mode.ts";
import type { LiveSession } from "../store/live-session.ts";
import { openById, resolveId } from "../services/open-session.ts";
import type { Services } from "../services/services.ts";
import type { Agent } from "./agent.ts";
import { createAgent } from "./create-agent.ts";

/** The agent a driver talks to now: `/clear` and `/resume` put a new one, on another session, in its place. */
export type CurrentAgent = {
  readonly agent: Agent;
  readonly services: Services;
  /** Starts a new session; the current one stays on disk. */
  reset(): Promise<void>;
  /** Goes on with the session `idOrPrefix` names; throws a one-line UsageError when none (or several) match. */
  resume(idOrPrefix: string): Promise<void>;
  /** Lets go of the agent's log, then of the services (the process is done with them). */
  close(): Promise<void>;
};

export function currentAgent(services: Services, first: Agent): CurrentAgent {
  let agent = first;
  const { sessions, warn } = services;
  // The next session is open before the current one is let go: one that cannot be opened leaves the current at work.
  const switchTo = async (next: LiveSession, start: "clear" | "resume", mode?: AgentMode) => {
    await agent.close();
    agent = await createAgent(services, { session: next, start, ...(mode ? { mode } : {}) });
  };
  return {
    get agent() {
      return agent;
    },
    services,
    // A new session keeps the mode the person works in; a resumed one goes on in its own.
    reset: async () => switchTo(await sessions.create({ cwd: services.cwd, model: agent.session.model }), "clear", agent.mode),
    resume: async (idOrPrefix) => switchTo(await openById(sessions, await resolveId(sessions, idOrPrefix, warn), warn), "resume"),
    async close() {
      await agent.close();
      await services.close();
    },
  };
}
