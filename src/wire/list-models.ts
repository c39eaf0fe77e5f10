import { sdkErrorToModelError } from "./sdk-error.ts";

/** `GET /models` asks no more than this long: a person is waiting at the prompt. */
const LIST_TIMEOUT_MS = 15_000;

/**
 * The models the endpoint offers (`GET /models`, every page), sorted. Throws an Error whose message
 * says why in one line. The SDK is loaded at the first call, as for model calls.
 */
export function createModelLister(opts: { apiKey: string; baseURL?: string }): () => Promise<string[]> {
  return async () => {
    const loaded = await import("openai");
    const client = new loaded.OpenAI({ apiKey: opts.apiKey, ...(opts.baseURL ? { baseURL: opts.baseURL } : {}), maxRetries: 1, logLevel: "off", timeout: LIST_TIMEOUT_MS });
    try {
      const ids: string[] = [];
      for await (const model of client.models.list()) ids.push(model.id);
      return ids.sort();
    } catch (err) {
      const error = sdkErrorToModelError(err, loaded, false, client.baseURL);
      throw new Error(error.hint ? `${error.message} — ${error.hint}` : error.message);
    }
  };
}
