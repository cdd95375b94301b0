/** X API v2 user objects as the port's NetworkUser. */
import type { NetworkUser, PremiumTier } from "../../../core/network/network_records.ts";
import type { XUser } from "./x_api_types.ts";
import { isoTime, plainText } from "./x_text.ts";

const TIERS: Record<string, PremiumTier> = { Basic: "basic", Premium: "premium", PremiumPlus: "premium_plus" };
const VERIFIED_TYPES = new Set(["blue", "business", "government"]);

/** The profile an X user object describes. */
export function userFromX(user: XUser): NetworkUser {
  const metrics = user.public_metrics ?? {};
  const website = user.entities?.url?.urls?.[0]?.expanded_url ?? user.url;
  const verifiedType = user.verified_type && VERIFIED_TYPES.has(user.verified_type) ? (user.verified_type as NetworkUser["verifiedType"]) : "none";
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    description: plainText(user.description ?? "", user.entities?.description?.urls),
    location: user.location || null,
    url: website || null,
    avatarUrl: user.profile_image_url ?? "",
    createdAt: isoTime(user.created_at, 0),
    protected: user.protected ?? false,
    verified: user.verified ?? false,
    verifiedType,
    // `subscription_type` is X's paid tier: None, Basic, Premium or PremiumPlus.
    premium: TIERS[user.subscription_type ?? ""] ?? "none",
    followersCount: metrics.followers_count ?? 0,
    followingCount: metrics.following_count ?? 0,
    postCount: metrics.tweet_count ?? 0,
    listedCount: metrics.listed_count ?? 0,
    pinnedPostId: user.pinned_tweet_id ?? null,
    // Only user context reveals it; under app-only auth a profile reads as open, and
    // sendDm's refusal (dm_closed) is the real answer.
    canDm: user.receives_your_dm ?? true,
  };
}
