/** Where requests go when neither `--base-url`, `OPENAI_BASE_URL` nor the config names another. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The base URL as the name of one endpoint: the default when none is set, without trailing slashes. */
export const endpointOf = (baseURL: string | undefined): string => (baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");

/**
 * The URL a base URL that got a 404 probably meant: the same with `/v1` after it, when its path does
 * not already end so (`http://localhost:8080` for `http://localhost:8080/v1`).
 */
export function withV1(baseURL: string): string | undefined {
  const trimmed = endpointOf(baseURL);
  let path: string;
  try {
    path = new URL(trimmed).pathname;
  } catch {
    return undefined;
  }
  return /\/v1$/.test(path) ? undefined : `${trimmed}/v1`;
}
