import type { InputImage } from "./messages.ts";
import type { SessionState } from "./reduce-session.ts";
import type { SessionEvent } from "./session-event.ts";
import { storeImages } from "./stored-images.ts";

/** The log lines of a prompt: the `image` lines of images the log does not hold yet, then the `user` line naming them all. */
export function userEvents(text: string, images: readonly InputImage[], state: SessionState, at: string): SessionEvent[] {
  const { lines, hashes } = storeImages(images, state.images);
  return [...lines, { type: "user", text, ...(hashes.length ? { images: hashes } : {}), at }];
}
