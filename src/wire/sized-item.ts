import type { ResponseInputItem } from "openai/resources/responses/responses";

/** An input item and what it adds to the request body: its JSON and the comma after it. */
export type SizedItem = { item: ResponseInputItem; chars: number };
export const sized = (item: ResponseInputItem): SizedItem => ({ item, chars: itemChars(item) });

// An image costs the model about 1,500 tokens at most, whatever its bytes: counted as that much text.
const IMAGE_CHARS = 6000;

/** What an item weighs as text: its JSON and the comma after it, an image (a prompt's, a result's) as IMAGE_CHARS rather than its base64. */
export function itemChars(item: ResponseInputItem): number {
  const chars = JSON.stringify(item).length + 1;
  const parts = item.type === "function_call_output" ? item.output : item.type === "message" ? item.content : undefined;
  if (!Array.isArray(parts)) return chars;
  let images = 0;
  for (const part of parts) if (part.type === "input_image") images += IMAGE_CHARS - JSON.stringify(part).length;
  return chars + images;
}
