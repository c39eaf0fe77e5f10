import { join } from "node:path";
import { endpointOf } from "../wire/base-url.ts";
import { createModelLister } from "../wire/list-models.ts";
import type { ModelStream } from "../wire/model-stream.ts";
import { createOpenAIStream } from "../wire/openai-stream.ts";
import { openLearnedWindows, type LearnedWindows } from "../store/learned-windows.ts";
import { checkModelOptions } from "./check-model-options.ts";
import type { Config, Flags } from "./settings.ts";

/** The model endpoint, shared by every agent of the run. */
export type ModelService = {
  stream: ModelStream;
  /** The models the endpoint offers (asked once, then remembered); throws a one-line Error when it cannot say. */
  list(): Promise<string[]>;
  /** Throws a UsageError when the run's options cannot go with `model` (an effort it does not take, a cost limit it has no price for). */
  check(model: string): void;
  /** The context windows overflows taught at this endpoint (`$SHIRO_HOME/context-windows.json`). */
  windows: LearnedWindows;
};

/** Throws a UsageError when the run's options cannot go with a model (checked before a session is made or continued). */
export function modelCheck(flags: Flags, config: Config): (model: string) => void {
  const effortLabel = flags.reasoningEffort ? `--reasoning-effort ${flags.reasoningEffort}` : `reasoningEffort "${config.reasoningEffort}" in ${join(config.home, "config.json")}`;
  return (model) => checkModelOptions(model, { effort: config.reasoningEffort, effortLabel, maxCostUsd: flags.maxCost });
}

export async function openModelService(flags: Flags, config: Config & { apiKey: string }, save: boolean, warn: (line: string) => void): Promise<ModelService> {
  const lister = createModelLister({ apiKey: config.apiKey, baseURL: config.baseUrl });
  let listed: Promise<string[]> | undefined;
  return {
    stream: createOpenAIStream({ apiKey: config.apiKey, baseURL: config.baseUrl, idleTimeoutMs: config.idleTimeoutMs }),
    list() {
      // A failure is not remembered: the next ask tries again.
      listed ??= lister().catch((err) => {
        listed = undefined;
        throw err;
      });
      return listed;
    },
    check: modelCheck(flags, config),
    windows: await openLearnedWindows({ home: config.home, endpoint: endpointOf(config.baseUrl), save, warn }),
  };
}
