import { isUtf8 } from "node:buffer";
import { ToolError } from "../tool.ts";
import { refuseBinary } from "./text-file.ts";

/** A file's text as edits see it, without its byte-order mark, which `editedBytes` puts back. */
export type EditableText = { text: string; bom: boolean };

const BOM = [0xef, 0xbb, 0xbf];

/**
 * A file's bytes as text for edit_file and apply_patch, only when writing the edited text back changes
 * nothing but the edit: binary files (a NUL anywhere) and bytes that are not UTF-8 (Latin-1, UTF-16) are
 * refused, since decoding them would turn each bad byte into U+FFFD for good.
 */
export function editableText(bytes: Uint8Array, shown: string): EditableText {
  refuseBinary(bytes, shown);
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, at).filter((b) => b === 0x0a).length + 1;
    throw new ToolError(
      `${shown} is not UTF-8 text (byte 0x${bytes[at]!.toString(16).toUpperCase()} on line ${line} is not valid UTF-8; Latin-1 or UTF-16?), ` +
        "so editing it would damage it. Nothing was changed; use write_file to replace all of it, or convert it first (e.g. iconv in bash).",
    );
  }
  const bom = BOM.every((b, i) => bytes[i] === b);
  // ignoreBOM keeps a mark that is text (a second one) as text; the first is taken off here, once.
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bom ? bytes.subarray(3) : bytes), bom };
}

/** The bytes of edited text, with the byte-order mark back when the file had one. */
export const editedBytes = (text: string, bom: boolean): Uint8Array => Buffer.from(bom ? `\uFEFF${text}` : text);

/** Where the first invalid UTF-8 sequence starts (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k] ?? 0;
      if (next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}
