/**
 * The account's own voice for the style presets (spec Tools: "The first eight are
 * style presets written in the account's own voice"): measured from its recent original
 * posts unless its context turns own-post examples off. Reading the account's own posts
 * is not a live lookup (spec Tools: "no live-data allowance").
 */
import type { AccountContext } from "../context.ts";
import { contextSettingsOf } from "../account_context/account_context.ts";
import { voiceProfile, type VoiceProfile } from "../model/voice_profile.ts";
import { callNetwork } from "../network/call_network.ts";

/** Posts the voice is measured from. */
const VOICE_SAMPLE = 40;

/** The voice profile of the account, or undefined when it has none to measure. */
export async function accountVoice(ctx: AccountContext): Promise<VoiceProfile | undefined> {
  const settings = await contextSettingsOf(ctx.services.sql, ctx.account.id);
  if (!settings.voice.use_own_posts_as_examples) return undefined;
  const page = await callNetwork(() => ctx.services.network.timeline(ctx.account.id, { limit: VOICE_SAMPLE, excludeReplies: true, excludeReposts: true }));
  const posts = page.items.map((post) => post.text);
  return posts.length > 0 ? voiceProfile(posts) : undefined;
}
