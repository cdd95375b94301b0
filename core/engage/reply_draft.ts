/**
 * `POST /v1/engage/reply-draft` (spec: Engage, rule 7, Limits 8, AI credits; supplement:
 * Engage): a reply in the account's voice to one post, named by `post_id` (read live: one
 * unit of the daily live allowance, none when the post was read in the last 15 minutes, as
 * every live lookup) or given as `post` wording (no allowance). Text only: nothing is posted.
 * Metered credits, refunded in full when the model fails before output (the credit step).
 */
import type { AccountContext } from "../context.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { LIVE_LOOKUPS } from "../limits/allowance_catalog.ts";
import { lookupQuotaError } from "../limits/allowance_errors.ts";
import { ApiError } from "../errors.ts";
import { networkApiError } from "../network/network_api_error.ts";
import { profilesOf } from "../network/profiles_of.ts";
import { toXPost, type xPost } from "../lookups/lookup_records.ts";
import { writingContext } from "../tools/writing_context.ts";
import { runModel } from "../tools/run_model.ts";
import { type DraftReplyInput, postWording, type REPLY_TONES } from "./reply_draft_schema.ts";
import type { z } from "zod";

/** What a tone asks of the model: one instruction clause each, in words the local engine follows too. */
const TONE_NOTES: Record<(typeof REPLY_TONES)[number], string> = {
  engaging: "Engaging",
  humorous: "Humorous",
  creative: "Creative",
  sarcastic: "Sarcastic",
  inspirational: "Inspirational",
  concise: "Concise",
};

/** Drafts a reply; answers the text and, for `post_id`, whether the live allowance was spent. */
export async function draftReply(ctx: AccountContext, input: DraftReplyInput) {
  const target = input.post_id !== undefined ? await livePost(ctx, input.post_id) : undefined;
  const wording = postWording(input);
  const post = target ? target.post.text : (wording?.text ?? "");
  const handle = target ? target.post.author?.username : wording?.authorHandle;
  const authorName = target ? target.post.author?.name : wording?.authorName;
  const { voice, rules } = await writingContext(ctx, { ownPosts: true });
  // The tone names a transform every engine follows (the local engine knows each word).
  const result = await runModel(ctx, {
    task: "reply_draft",
    input: { post, authorHandle: handle, authorName, thoughts: input.thoughts, instructions: TONE_NOTES[input.tone], voice, rules },
  });
  return {
    data: { text: result.text, tone: input.tone, post_id: input.post_id ?? null },
    meta: { credits_charged: result.creditsCharged, live_lookups: target?.spent ?? 0, account_id: ctx.account.id },
  };
}

/**
 * The post named by id, read through the live-lookup cache that `GET /v1/x/posts/{id}` fills
 * (same key, same shape): a cached post spends no allowance (Limits 8); a read that never
 * reached the network gives the unit back.
 */
async function livePost(ctx: AccountContext, postId: string): Promise<{ post: z.infer<typeof xPost>; spent: number }> {
  const { lookupCache, clock, network } = ctx.services;
  const key = `post:${postId}:plain`;
  const cached = lookupCache.get<z.infer<typeof xPost> & { quotes?: unknown }>(key, clock.now());
  if (cached) return { post: cached, spent: 0 };
  const charges = [{ spec: LIVE_LOOKUPS, units: 1 }];
  const outcome = await consumeAllowances(ctx, ctx.principal.mainAccountId, charges);
  if (outcome.status !== "allowed") throw lookupQuotaError(outcome);
  try {
    const found = await network.postById(postId);
    const post = { ...toXPost(found, await profilesOf(network, [found.authorId])), quotes: undefined };
    lookupCache.set(key, post, clock.now());
    return { post, spent: 1 };
  } catch (error) {
    const failure = networkApiError(error);
    if (failure instanceof ApiError && (failure.code === "upstream_unavailable" || failure.code === "upstream_timeout")) {
      await releaseAllowances(ctx, ctx.principal.mainAccountId, charges, { chargedAt: outcome.checkedAt });
    }
    throw failure;
  }
}
