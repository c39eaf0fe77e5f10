import { createHash } from "node:crypto";
import type { InputImage } from "./messages.ts";
import type { EventOf } from "./session-event.ts";

/** The sha256 of an image's bytes, in hex (as `sha256sum` prints it): the key its `image` line is stored by. */
export const imageHash = (image: InputImage): string => createHash("sha256").update(Buffer.from(image.data, "base64")).digest("hex");

/**
 * What a prompt's or a result's images add to the log: an `image` line for each one it does not hold
 * yet (`known`: the state's images), so an image given again costs a hash, never its bytes; and the
 * hashes the prompt or result names them by, in order.
 */
export function storeImages(images: readonly InputImage[], known: Readonly<Record<string, InputImage>>): { lines: EventOf<"image">[]; hashes: string[] } {
  const lines: EventOf<"image">[] = [];
  const hashes = images.map((image) => {
    const hash = imageHash(image);
    if (!Object.hasOwn(known, hash) && !lines.some((line) => line.hash === hash)) lines.push({ type: "image", hash, mediaType: image.mediaType, data: image.data });
    return hash;
  });
  return { lines, hashes };
}
