/**
 * `POST /v1/posts/remix` and `POST /v1/posts/draft` (spec: Other endpoints with stated
 * parameters; supplement: Content). Text only, nothing saved (rule 7). Remix is metered
 * (typically 2 credits); a draft costs 3 credits per draft written, and failed drafts
 * are refunded (supplement 3.3): when every draft fails the answer is
 * `502 generation_failed` and nothing is kept.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeCall } from "../credits/credit_call.ts";
import { activeProducts } from "../account_context/context_queries.ts";
import { accountById } from "../accounts/accounts_queries.ts";
import type { ProductContext } from "../model/task_inputs.ts";
import { voiceProfile, type VoiceProfile } from "../model/voice_profile.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { callNetwork } from "../network/call_network.ts";
import { postTexts, writingContext } from "../tools/writing_context.ts";
import { runModel } from "../tools/run_model.ts";
import type { DraftPostsInput, RemixPostInput } from "./compose_schema.ts";
import { assertUsableMirror } from "./mirror_guard.ts";

/** Credits per draft written (supplement 3.3: "3 per draft written"). */
export const CREDITS_PER_DRAFT = 3;

/** A remix of `text`; the account's own post keeps its subject, products, names and numbers. */
export async function remixPost(ctx: AccountContext, input: RemixPostInput) {
  const own = input.author_handle !== undefined && (await isOwnHandle(ctx, input.author_handle));
  const [{ voice, rules }, products] = await Promise.all([writingContext(ctx, { ownPosts: true }), productsOf(ctx)]);
  const result = await runModel(ctx, {
    task: "remix",
    input: { text: input.text, closeness: input.closeness, instructions: input.instructions, ownPost: own, voice, products, rules },
  });
  return { data: { text: result.text, own_post: own }, meta: { credits_charged: result.creditsCharged, account_id: ctx.account.id } };
}

/** Up to `count` drafts from a brief, in the account's voice, a creator's, or both. */
export async function draftPosts(ctx: AccountContext, input: DraftPostsInput) {
  assertUsableMirror(input.mirror);
  if (input.voice !== "mine" && !input.creator) throw new ApiError("invalid_parameter", `Invalid "creator": required with voice "${input.voice}"`);
  const [writing, products] = await Promise.all([writingContext(ctx, { ownPosts: input.voice !== "creator" }), productsOf(ctx)]);
  const voice = await draftVoice(ctx, writing.ownPosts, input.voice, input.creator);
  const { rules } = writing;
  const drafts: string[] = [];
  let failure: unknown;
  for (let i = 0; i < input.count; i++) {
    try {
      // Drafts are priced flat per draft written, whatever the model's own cost.
      const { text } = await ctx.services.model.generate({
        task: "draft",
        input: { brief: input.brief, mirror: input.mirror, instructions: variantInstructions(input.instructions, i), voice, products, rules },
      });
      // The local engine is deterministic: an identical draft is not a second draft.
      if (!drafts.includes(text)) drafts.push(text);
    } catch (error) {
      failure = error;
    }
  }
  if (drafts.length === 0)
    throw modelApiError(failure, { failedCode: "generation_failed" }) ?? new ApiError("generation_failed", "Every draft failed; nothing was charged");
  await chargeCall(ctx, drafts.length * CREDITS_PER_DRAFT);
  return {
    data: { drafts: drafts.map((text) => ({ text })), requested: input.count, written: drafts.length },
    meta: { credits_charged: drafts.length * CREDITS_PER_DRAFT, account_id: ctx.account.id },
  };
}

function variantInstructions(instructions: string | undefined, index: number): string | undefined {
  const angles = [undefined, "open with a question", "make it shorter"];
  return [instructions, angles[index]].filter(Boolean).join("; ") || undefined;
}

/** The voice a draft is written in: the account's own posts, a creator's, or both. */
async function draftVoice(ctx: AccountContext, mine: string[], voice: "mine" | "creator" | "hybrid", creator?: string): Promise<VoiceProfile | undefined> {
  const theirs = creator ? await creatorPostTexts(ctx, creator) : [];
  const posts = voice === "mine" ? mine : voice === "creator" ? theirs : [...mine.slice(0, 20), ...theirs.slice(0, 20)];
  return posts.length > 0 ? voiceProfile(posts) : undefined;
}

async function creatorPostTexts(ctx: AccountContext, handle: string): Promise<string[]> {
  const user = await callNetwork(() => ctx.services.network.userByUsername(handle));
  return postTexts(ctx, user.id);
}

async function isOwnHandle(ctx: AccountContext, handle: string): Promise<boolean> {
  const row = await accountById(ctx.services.sql, ctx.account.id);
  return row?.username.toLowerCase() === handle.replace(/^@/, "").toLowerCase();
}

async function productsOf(ctx: AccountContext): Promise<ProductContext[]> {
  return (await activeProducts(ctx.services.sql, ctx.account.id))
    .filter((row) => row.name)
    .map((row) => ({
      name: row.name!,
      description: row.description,
      positioning: row.positioning,
      url: row.url,
    }));
}
