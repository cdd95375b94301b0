/**
 * What a research run reads and what it says about a profile it could not read (docs/areas.md "Datasets";
 * supplement: Datasets, research form), shared by the request path and the job.
 */
import type { z } from "zod";
import type { skippedProfile } from "./dataset_schema.ts";

/**
 * One profile to research: a handle as the caller sent it (resolved on the network), or a
 * person a stored source already knows by X id (the handle is only for the answer).
 */
export interface ResearchTarget {
  handle: string | null;
  x_user_id: string | null;
}

/** A profile left out of a run, and why (`meta.skipped`; never charged). */
export type SkippedProfile = z.infer<typeof skippedProfile>;

/** Why a profile was left out. */
export type SkipReason = SkippedProfile["reason"];

/** The skipped entry of `target`. */
export function skippedOf(target: ResearchTarget, reason: SkipReason): SkippedProfile {
  return { handle: target.handle, x_user_id: target.x_user_id, reason };
}

/**
 * Live lookups a profile spends (spec Limits 8: "Research spends 1 or 2 per profile"): 1
 * for a person whose X id is known, 2 for a handle (resolving it is the extra read, as
 * `/posts` of an unknown handle costs 2 in Limits 5).
 */
export function liveUnitsOf(target: ResearchTarget): 1 | 2 {
  return target.x_user_id ? 1 : 2;
}
