/** A mistake in how shiro was invoked: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
