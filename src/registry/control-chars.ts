import { z } from "zod";

// Terminal escapes and other control characters in registry text could repaint the screen or hide words
// from the person reading a preview; only tab and newlines are let through.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const hasControlChars = (text: string): boolean => CONTROL.test(text);

/** A registry text field (description, reason, author): present, at most `max` characters, no control characters. */
export const plainTextSchema = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !hasControlChars(value), "contains control characters");
