/** Why `url` may not be fetched, or undefined when it may: only https, so nothing is read in the clear or from disk. */
export function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not an absolute URL`;
  }
  if (parsed.protocol !== "https:") return `${parsed.protocol} URLs are not allowed, only https:`;
  if (parsed.username || parsed.password) return "URLs with credentials in them are not allowed";
  return undefined;
}
