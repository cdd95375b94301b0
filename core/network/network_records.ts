/**
 * What the social network port returns: users, posts, lists, DMs and articles as
 * Threadline reads them, whichever adapter (simulated world or X API v2) produced them.
 * Times are UTC ISO-8601 strings with milliseconds (`2026-11-21T09:00:00.000Z`), the
 * form X API v2 uses; ids are numeric text, since X ids pass 2^53.
 */

/** The account's paid tier on the network; articles need `premium` or `premium_plus`. */
export type PremiumTier = "none" | "basic" | "premium" | "premium_plus";

/** A profile on the network. */
export interface NetworkUser {
  id: string;
  /** Handle without `@`, as the network spells it. */
  username: string;
  name: string;
  /** The bio. */
  description: string;
  location: string | null;
  /** The website on the profile, when set. */
  url: string | null;
  avatarUrl: string;
  createdAt: string;
  /** Protected accounts show their profile but not their posts. */
  protected: boolean;
  verified: boolean;
  verifiedType: "none" | "blue" | "business" | "government";
  premium: PremiumTier;
  followersCount: number;
  followingCount: number;
  postCount: number;
  listedCount: number;
  pinnedPostId: string | null;
  /** Whether anyone may send this account a DM. */
  canDm: boolean;
}

/** Public counters of a post at the moment it was read. */
export interface PostMetrics {
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  impressions: number;
  bookmarks: number;
}

/** An image, GIF or video attached to a post. */
export interface PostMedia {
  key: string;
  type: "photo" | "animated_gif" | "video";
  url: string | null;
  altText: string | null;
}

/**
 * A post. `kind` follows how the spec counts (Versioning 4): a thread continuation (the
 * author answering their own post) is a `post` with `isThreadContinuation`, and `reply`
 * means answering someone else.
 */
export interface NetworkPost {
  id: string;
  authorId: string;
  text: string;
  createdAt: string;
  kind: "post" | "reply" | "quote" | "repost";
  /** Id of the first post of the conversation (the post itself when it starts one). */
  conversationId: string;
  replyToId: string | null;
  /** Author of the post replied to. */
  replyToUserId: string | null;
  quotedId: string | null;
  repostedId: string | null;
  isThreadContinuation: boolean;
  /** Accounts named with `@` in the text (a reply names the author it answers). */
  mentionedUserIds: string[];
  /** BCP 47 language tag of the text (`en`, `es`, ...). */
  lang: string;
  metrics: PostMetrics;
  media: PostMedia[];
  /** Set on the post that carries a published article. */
  article: { id: string; title: string } | null;
}

/** An X list. */
export interface NetworkList {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  private: boolean;
  memberCount: number;
  followerCount: number;
  createdAt: string;
}

/** A direct message. */
export interface NetworkDm {
  id: string;
  senderId: string;
  recipientId: string;
  text: string;
  createdAt: string;
}

/** A published article: the article id and the post that carries it. */
export interface NetworkArticle {
  id: string;
  authorId: string;
  postId: string;
  /** Link to the post carrying the article. */
  url: string;
  title: string;
  publishedAt: string;
}

/** One page of a list. `nextCursor` is absent on the last page; cursors are opaque. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Which page to read. */
export interface PageRequest {
  cursor?: string;
  /** Items per page; each method states its default and maximum and clamps to them. */
  limit?: number;
}

/** A page of a time-ordered list (newest first) bounded by an optional window. */
export interface WindowPageRequest extends PageRequest {
  /** Inclusive lower bound on `createdAt` (ISO-8601). */
  since?: string;
  /** Exclusive upper bound on `createdAt` (ISO-8601); default now. */
  until?: string;
}

/** What a network adapter is, for callers whose answers depend on it. */
export interface NetworkInfo {
  kind: "simulated" | "x_api";
  /** How far back `search` reaches, in days (X API v2 recent search: 7). */
  searchWindowDays: number;
  /** The network's own limit on one sender's DMs, when it has one (X: 15 per 15 minutes, 1,440 per 24 hours); DM campaigns are planned within it. */
  dmWindow?: NetworkDmWindow;
}

/** A network's limit on the DMs one account sends: `perWindow` per `windowMs`, `perDay` per 24 hours. */
export interface NetworkDmWindow {
  perWindow: number;
  windowMs: number;
  perDay: number;
}

/**
 * Handles and ids the demo world publishes under `x.*` (shared/spec/demo_world.md).
 * Keys are spelled as in the demo JSON.
 */
export interface NetworkDemoFixtures {
  /** A public handle that exists. */
  user_handle: string;
  /** A well-formed handle that does not exist. */
  unknown_handle: string;
  /** A public post with replies, quotes and reposts. */
  post_id: string;
  /** A public post with hundreds of repliers. */
  large_post_id: string;
  public_list_id: string;
  private_list_id: string;
  /** A protected account (its posts are private). */
  protected_handle: string;
}
