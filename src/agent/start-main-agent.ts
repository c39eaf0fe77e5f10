import { realpathSync } from "node:fs";
import { finishUndos, openForUndo } from "../checkpoint/undo-turns.ts";
import { modelCheck } from "../services/model-service.ts";
import { openSession } from "../services/open-session.ts";
import { openStores } from "../services/open-stores.ts";
import { createServices, type Services, type ServicesOptions } from "../services/services.ts";
import { createAgent } from "./create-agent.ts";
import { currentAgent, type CurrentAgent } from "./current-agent.ts";

/**
 * What a driver (the REPL, print mode) starts with: the stores, then the session the flags name
 * (new, `-c`, `-r`) — refused before anything else starts — then the services, and the agent on it.
 */
export async function startMainAgent(opts: ServicesOptions): Promise<CurrentAgent> {
  const { flags, config, cwd, warn } = opts;
  const stores = openStores(config.home, flags.ephemeral, warn);
  const check = modelCheck(flags, config);
  // A new session's model is known before it is made; a continued one's only once it is read.
  const continuing = flags.continue || flags.resume !== undefined;
  if (!continuing) check(config.model);
  // An undo a killed shiro left half done is finished before anything else reads the project.
  if (stores.store.saves && !stores.disposeCheckpoints) await finishUndos({ store: stores.checkpointStore, root: realpathSync(cwd), open: openForUndo(stores.store, warn), warn });
  const session = await openSession(stores.store, { flags, cwd, model: config.model, warn });
  let services: Services | undefined;
  try {
    if (continuing) check(session.state.model);
    services = await createServices(opts, stores);
    // --plan and --no-plan set the mode; else the session goes on in the one its log left it in.
    const mode = flags.plan === undefined ? {} : { mode: flags.plan ? ("plan" as const) : ("default" as const) };
    return currentAgent(services, await createAgent(services, { session, ...mode }));
  } catch (err) {
    session.close();
    await services?.close();
    throw err;
  }
}
