/**
 * Inputs and answers of the bulk queue calls (supplement: Queue, `POST
 * /v1/scheduled-posts/bulk/...`): counts plus one result per id, each `updated` (or
 * `deleted`) or `skipped` with the reason.
 */
import { z } from "zod";
import { accountSelection, timestamp } from "../schema.ts";
import { autoRetweetInput, postIdInBody } from "./scheduled_post_schema.ts";

/** Moves in one retime (supplement: "1-500 moves"). */
export const MAX_RETIME_MOVES = 500;
/** Ids in one auto-retweet or delete (supplement: "1-100"). */
export const MAX_BULK_IDS = 100;

/**
 * Why an id was skipped: `not_found` (no post of this account), `not_queued` (a draft,
 * sent or error post), `publishing` (due or being published now), `unchanged` (retime to
 * the time it already has), `has_auto_retweet` (never overwritten).
 */
export const SKIP_REASONS = ["not_found", "not_queued", "publishing", "unchanged", "has_auto_retweet"] as const;

/** A skip reason. */
export type SkipReason = (typeof SKIP_REASONS)[number];

const ids = z
  .array(postIdInBody, { error: `must be an array of 1 to ${MAX_BULK_IDS} scheduled post ids` })
  .min(1, `must have 1 to ${MAX_BULK_IDS} ids`)
  .max(MAX_BULK_IDS, `must have 1 to ${MAX_BULK_IDS} ids`)
  .meta({ description: `1 to ${MAX_BULK_IDS} scheduled post ids; repeats count once` });

/** `POST /v1/scheduled-posts/bulk/retime`. */
export const bulkRetimeInput = z.object({
  moves: z
    .array(z.object({ id: postIdInBody, scheduled_for: timestamp }), { error: `must be an array of 1 to ${MAX_RETIME_MOVES} { id, scheduled_for }` })
    .min(1, `must have 1 to ${MAX_RETIME_MOVES} moves`)
    .max(MAX_RETIME_MOVES, `must have 1 to ${MAX_RETIME_MOVES} moves`),
  ...accountSelection,
});

/** What a bulk retime sends. */
export type BulkRetimeInput = z.infer<typeof bulkRetimeInput>;

/** `POST /v1/scheduled-posts/bulk/auto-retweet`. */
export const bulkAutoRetweetInput = z.object({ ids, auto_retweet: autoRetweetInput, ...accountSelection });

/** What a bulk auto-retweet sends. */
export type BulkAutoRetweetInput = z.infer<typeof bulkAutoRetweetInput>;

/** `POST /v1/scheduled-posts/bulk/delete`. */
export const bulkDeleteInput = z.object({ ids, ...accountSelection });

/** What a bulk delete sends. */
export type BulkDeleteInput = z.infer<typeof bulkDeleteInput>;

function resultOf<const T extends string>(done: T) {
  return z.object({
    id: z.string(),
    result: z.enum([done, "skipped"]),
    reason: z.enum(SKIP_REASONS).optional().meta({ description: "Why it was skipped" }),
  });
}

/** The answer of retime and auto-retweet. */
export const bulkUpdateResult = z
  .object({ updated: z.number().int(), skipped: z.number().int(), results: z.array(resultOf("updated")) })
  .meta({ id: "BulkUpdateResult" });

/** The answer of delete. */
export const bulkDeleteResult = z
  .object({ deleted: z.number().int(), skipped: z.number().int(), results: z.array(resultOf("deleted")) })
  .meta({ id: "BulkDeleteResult" });

/** One id's outcome. */
export interface BulkItem<Done extends string> {
  id: string;
  result: Done | "skipped";
  reason?: SkipReason;
}

/** Counts and results from per-id outcomes, in request order. */
export function bulkAnswer<Done extends "updated" | "deleted">(done: Done, items: BulkItem<Done>[]) {
  const count = items.filter((item) => item.result === done).length;
  return { [done]: count, skipped: items.length - count, results: items } as Record<Done, number> & { skipped: number; results: BulkItem<Done>[] };
}
