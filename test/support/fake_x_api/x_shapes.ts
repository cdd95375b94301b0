/**
 * The simulated network's records in X API v2 JSON, as X writes them: only the fields
 * a request asks for (`tweet.fields`, `user.fields`, `list.fields`, `media.fields`;
 * ids, names and text always), HTML-escaped text, a post past 280 characters cut short
 * with the full text in `note_tweet`, mentions as `entities.mentions` with code-point
 * offsets, and `includes` for the expansions asked (`author_id`,
 * `referenced_tweets.id`, `attachments.media_keys`). Answering only what is asked is
 * what lets the tests catch a client that forgets to ask.
 */
import type { NetworkList, NetworkPost, NetworkUser } from "../../../core/network/network_records.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";

/** The comma-separated values of query parameter `name`. */
export function fieldsOf(url: URL, name: string): Set<string> {
  return new Set((url.searchParams.get(name) ?? "").split(",").filter(Boolean));
}

const TIERS = { none: "None", basic: "Basic", premium: "Premium", premium_plus: "PremiumPlus" } as const;

/** A user object. */
export function xUser(user: NetworkUser, fields: Set<string>): Record<string, unknown> {
  const all: Record<string, unknown> = {
    created_at: user.createdAt,
    description: user.description,
    location: user.location ?? undefined,
    // X answers an empty string for a profile without a website.
    url: user.url ?? "",
    profile_image_url: user.avatarUrl,
    protected: user.protected,
    verified: user.verified,
    verified_type: user.verifiedType,
    subscription_type: TIERS[user.premium],
    pinned_tweet_id: user.pinnedPostId ?? undefined,
    receives_your_dm: user.canDm,
    public_metrics: {
      followers_count: user.followersCount,
      following_count: user.followingCount,
      tweet_count: user.postCount,
      listed_count: user.listedCount,
      like_count: 0,
    },
  };
  return { id: user.id, name: user.name, username: user.username, ...pick(all, fields) };
}

/** A list object. */
export function xList(list: NetworkList, fields: Set<string>): Record<string, unknown> {
  const all = {
    created_at: list.createdAt,
    description: list.description,
    follower_count: list.followerCount,
    member_count: list.memberCount,
    owner_id: list.ownerId,
    private: list.private,
  };
  return { id: list.id, name: list.name, ...pick(all, fields) };
}

/** A tweet object; `usernames` names the mentioned accounts. */
export function xTweet(post: NetworkPost, fields: Set<string>, usernames: ReadonlyMap<string, string>): Record<string, unknown> {
  const chars = [...post.text];
  const long = chars.length > 280;
  const refs = [
    ...(post.replyToId ? [{ type: "replied_to", id: post.replyToId }] : []),
    ...(post.quotedId ? [{ type: "quoted", id: post.quotedId }] : []),
    ...(post.repostedId ? [{ type: "retweeted", id: post.repostedId }] : []),
  ];
  const mentions = mentionEntities(post, usernames);
  const all: Record<string, unknown> = {
    created_at: post.createdAt,
    author_id: post.authorId,
    conversation_id: post.conversationId,
    in_reply_to_user_id: post.replyToUserId ?? undefined,
    referenced_tweets: refs.length > 0 ? refs : undefined,
    lang: post.lang,
    public_metrics: {
      retweet_count: post.metrics.reposts,
      reply_count: post.metrics.replies,
      like_count: post.metrics.likes,
      quote_count: post.metrics.quotes,
      bookmark_count: post.metrics.bookmarks,
      impression_count: post.metrics.impressions,
    },
    entities: mentions.length > 0 ? { mentions } : undefined,
    attachments: post.media.length > 0 ? { media_keys: post.media.map((media) => media.key) } : undefined,
    note_tweet: long ? { text: escapeHtml(post.text) } : undefined,
    article: post.article ? { title: post.article.title } : undefined,
  };
  const text = long ? `${chars.slice(0, 279).join("")}…` : post.text;
  return { id: post.id, text: escapeHtml(text), edit_history_tweet_ids: [post.id], ...pick(all, fields) };
}

/** `data`, `includes` and the usernames they need, for posts answered by a request to `url`. */
export async function tweetsBody(
  network: SocialNetwork,
  url: URL,
  posts: NetworkPost[],
): Promise<{ data: Record<string, unknown>[]; includes?: Record<string, unknown[]> }> {
  const tweetFields = fieldsOf(url, "tweet.fields");
  const expansions = fieldsOf(url, "expansions");
  const referenced = expansions.has("referenced_tweets.id")
    ? await network.postsByIds([
        ...new Set(posts.flatMap((post) => [post.replyToId, post.quotedId, post.repostedId]).filter((id): id is string => id !== null)),
      ])
    : [];
  const named = [...new Set([...posts, ...referenced].flatMap((post) => post.mentionedUserIds))];
  const usernames = new Map((await network.usersByIds(named)).map((user) => [user.id, user.username]));
  const includes: Record<string, unknown[]> = {};
  if (expansions.has("author_id")) {
    const authors = await network.usersByIds([...new Set(posts.map((post) => post.authorId))]);
    if (authors.length > 0) includes.users = authors.map((user) => xUser(user, fieldsOf(url, "user.fields")));
  }
  if (referenced.length > 0) includes.tweets = referenced.map((post) => xTweet(post, tweetFields, usernames));
  if (expansions.has("attachments.media_keys")) {
    const mediaFields = fieldsOf(url, "media.fields");
    const media = posts
      .flatMap((post) => post.media)
      .map((item) => ({
        media_key: item.key,
        type: item.type,
        ...pick({ url: item.url ?? undefined, alt_text: item.altText ?? undefined }, mediaFields),
      }));
    if (media.length > 0) includes.media = media;
  }
  const data = posts.map((post) => xTweet(post, tweetFields, usernames));
  return Object.keys(includes).length > 0 ? { data, includes } : { data };
}

/** `entities.mentions` of the accounts a post names, where its text names them (offsets in code points, as X counts). */
function mentionEntities(post: NetworkPost, usernames: ReadonlyMap<string, string>) {
  const chars = [...post.text];
  const lower = chars.map((char) => char.toLowerCase());
  const found: { start: number; end: number; username: string; id: string }[] = [];
  for (const id of post.mentionedUserIds) {
    const username = usernames.get(id);
    if (!username) continue;
    const handle = [...`@${username.toLowerCase()}`];
    for (let start = 0; start + handle.length <= lower.length; start++) {
      const end = start + handle.length;
      if (handle.every((char, i) => lower[start + i] === char) && !/[A-Za-z0-9_]/.test(lower[end] ?? "")) {
        found.push({ start, end, username, id });
        break;
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function pick(all: Record<string, unknown>, fields: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(all).filter(([name, value]) => fields.has(name) && value !== undefined));
}
