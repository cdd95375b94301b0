/**
 * What the writing tools write with, read once per call: the account's standing rules
 * and, where asked, its own recent original posts (spec Tools: the style presets are
 * "written in the account's own voice"; docs/operations.md "The outside world": tools write with the account's voice, rules and products). Reading the
 * account's own posts is not a live lookup (spec Tools: "no live-data allowance"); they
 * are left out when the context turns own-post examples off.
 */
import type { AccountContext } from "../context.ts";
import { contextSettingsOf } from "../account_context/account_context.ts";
import { voiceProfile, type VoiceProfile } from "../model/voice_profile.ts";
import { callNetwork } from "../network/call_network.ts";

/** Posts the voice is measured from. */
const VOICE_SAMPLE = 40;

/** The account's rules, own post texts and the voice measured from them. */
export interface WritingContext {
  rules: string | null;
  ownPosts: string[];
  voice: VoiceProfile | undefined;
}

/** Reads the context settings once and, when `ownPosts` is asked, the account's recent originals. */
export async function writingContext(ctx: AccountContext, options: { ownPosts: boolean }): Promise<WritingContext> {
  const settings = await contextSettingsOf(ctx.services.sql, ctx.account.id);
  const ownPosts = options.ownPosts && settings.voice.use_own_posts_as_examples ? await postTexts(ctx, ctx.account.id) : [];
  return { rules: settings.rules, ownPosts, voice: ownPosts.length > 0 ? voiceProfile(ownPosts) : undefined };
}

/** The recent original post texts of `userId`. */
export async function postTexts(ctx: AccountContext, userId: string): Promise<string[]> {
  const page = await callNetwork(() => ctx.services.network.timeline(userId, { limit: VOICE_SAMPLE, excludeReplies: true, excludeReposts: true }));
  return page.items.map((post) => post.text);
}
