import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../exit/usage-error.ts";
import { IMAGE_KINDS, imageOf } from "../files/image-of.ts";
import type { InputImage } from "../session/messages.ts";
import { isFile, readPersonFile } from "./person-file.ts";

/** One `-i` file: the path as given, and the image it holds. */
export type ImageFlag = { given: string; image: InputImage };

/**
 * The `-i` files, read as the person (relative to `root`): each must be an image the API reads, by its
 * bytes. Anything else — no such file, a secret, text named `.png`, an image too large — is the command
 * line's mistake: one line saying which and why, before anything is sent.
 */
export async function readImageFlags(paths: readonly string[], root: string): Promise<ImageFlag[]> {
  const flags: ImageFlag[] = [];
  for (const given of paths) {
    const path = resolve(root, given);
    if (!isFile(path)) throw new UsageError(`-i ${given}: ${existsSync(path) ? "not a file" : "no such file"}`);
    const file = await readPersonFile(path, root);
    if ("refused" in file) throw new UsageError(`-i ${given}: ${file.refused}`);
    const image = imageOf(file.bytes, given);
    if (!image) throw new UsageError(`-i ${given}: not a ${IMAGE_KINDS} image by its bytes, whatever its name says`);
    if ("refused" in image) throw new UsageError(`-i ${image.refused}`);
    flags.push({ given, image: image.image });
  }
  return flags;
}
