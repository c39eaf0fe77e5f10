/** Where the first file an @mention attached begins (attach-mentions appends them in this form). */
const ATTACHED = /\n\n<file path="[^"\n]*">\n/;

/**
 * A turn's prompt as the person typed it, from the text the session recorded: the files its
 * @mentions attached were appended after it, and putting them back in the prompt line would send
 * them twice (the mentions attach them again). Text that merely contains such a tag is left whole
 * unless the blocks run to the very end, as only attached ones do.
 */
export function typedPrompt(recorded: string): string {
  const at = recorded.search(ATTACHED);
  return at >= 0 && recorded.endsWith("\n</file>") ? recorded.slice(0, at) : recorded;
}
