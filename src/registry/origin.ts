import { z } from "zod";

/** Recorded at install so `/skills` and `registry installed` can always say where an instruction came from. */
export const originSchema = z.object({
  kind: z.enum(["skill", "plugin"]),
  name: z.string(),
  indexUrl: z.string(),
  entryUrl: z.string(),
  sha256: z.string(),
  installedAt: z.string(),
  author: z.string().optional(),
});
export type Origin = z.infer<typeof originSchema>;
