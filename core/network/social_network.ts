/**
 * The SocialNetwork port (docs/operations.md "The outside world"): everything Threadline reads from or writes to X.
 * Two adapters implement it: the deterministic simulated world (`adapters/x/simulated/`,
 * the embedded default) and the X API v2 client. Endpoints call it through
 * `services.network` and turn its typed errors into API errors with `networkApiError`
 * (`call_network.ts`), so no endpoint knows which adapter answered.
 *
 * Lookups of something missing throw `NetworkNotFoundError`; of something protected or
 * private `NetworkPrivateError`; an unreachable network `NetworkUnavailableError`.
 */
import type {
  NetworkArticle,
  NetworkDemoFixtures,
  NetworkDm,
  NetworkInfo,
  NetworkList,
  NetworkPost,
  NetworkUser,
  Page,
  PageRequest,
  WindowPageRequest,
} from "./network_records.ts";

/** Options of a user's timeline (newest first; default 20 per page, at most 100). */
export interface TimelineOptions extends WindowPageRequest {
  /** Leave out replies to other accounts (thread continuations stay: they are posts). */
  excludeReplies?: boolean;
  excludeReposts?: boolean;
}

/**
 * A recent search (newest first; default 20 per page, at most 100). The query is
 * words that must all appear (case-insensitive), `"exact phrases"`, `-excluded` words
 * and `OR` between alternatives: `"cold email" founders OR outbound -crypto`.
 */
export interface SearchOptions extends WindowPageRequest {
  query: string;
  /** Only posts with at least this many likes when read. */
  minLikes?: number;
  /** Only posts in this language (`en`). */
  lang?: string;
  /** Leave out replies, quotes, reposts and thread continuations (X: `-is:reply -is:quote -is:retweet`). */
  originalsOnly?: boolean;
}

/** Direct replies of a post (default 20 per page, at most 100). */
export interface RepliesOptions extends PageRequest {
  /** `recent` (default): newest first. `relevance`: most liked first. */
  sort?: "recent" | "relevance";
}

/** One file to upload to the network for a post (`SocialNetwork.uploadMedia`). */
export interface UploadMediaInput {
  /** The account the post is published as (uploads act as it). */
  authorId: string;
  bytes: Uint8Array;
  /** `image/png`, `image/gif`, ... */
  mimeType: string;
  altText?: string | null;
}

/** The network's id of an uploaded file, and until when a post may attach it. */
export interface UploadedMedia {
  mediaId: string;
  expiresAt: Date;
}

/** A post to publish as `authorId`. */
export interface PublishPostInput {
  authorId: string;
  text: string;
  /** Media already uploaded for this post (object keys). */
  mediaKeys?: string[];
  replyToId?: string;
  quoteOfId?: string;
  /**
   * The client's idempotency token. Publishing again with the same author and token
   * returns the post already published instead of a second one; `findPublished` finds
   * it by token. Adapters without native tokens reconcile by text (see `findPublished`).
   */
  token?: string;
}

/** A thread to publish: part 1 first, each next part answering the previous one. */
export interface PublishThreadInput {
  authorId: string;
  parts: { text: string; mediaKeys?: string[] }[];
  /** The first part answers this post, when given. */
  replyToId?: string;
  /** Part `i` (0-based) is published with token `<token>:<i>`, so a retry resumes where it stopped. */
  token?: string;
}

/** How to recognise a post that may already have been published. */
export interface FindPublishedQuery {
  authorId: string;
  /** The token given to `publishPost`. */
  token?: string;
  /** Without a token: the exact text, published at or after `since` (default: the last 24 hours). */
  text?: string;
  since?: string;
}

/** An article to publish from its stored title, Markdown body and cover. */
export interface PublishArticleInput {
  authorId: string;
  title: string;
  markdown: string;
  coverUrl?: string | null;
  token?: string;
}

/** A DM to send. */
export interface SendDmInput {
  senderId: string;
  recipientId: string;
  text: string;
  token?: string;
}

/** A user's follower count at the end of a UTC day (`YYYY-MM-DD`). */
export interface FollowerCountOnDay {
  day: string;
  followers: number;
}

/** The social network as Threadline's core sees it. */
export interface SocialNetwork {
  readonly info: NetworkInfo;

  /** A profile by handle (leading `@` and case ignored). */
  userByUsername(username: string): Promise<NetworkUser>;
  userById(id: string): Promise<NetworkUser>;
  /** The profiles that exist among `ids`, in the order asked; missing ones are left out. */
  usersByIds(ids: readonly string[]): Promise<NetworkUser[]>;
  /** The profiles that exist among `usernames`, in the order asked; missing ones are left out. */
  usersByUsernames(usernames: readonly string[]): Promise<NetworkUser[]>;

  postById(id: string): Promise<NetworkPost>;
  /** The readable posts among `ids`, in the order asked; missing or private ones are left out. */
  postsByIds(ids: readonly string[]): Promise<NetworkPost[]>;
  /** Direct replies to a post. */
  replies(postId: string, options?: RepliesOptions): Promise<Page<NetworkPost>>;
  /** Quote posts of a post, newest first (default 20, at most 100). */
  quotes(postId: string, options?: PageRequest): Promise<Page<NetworkPost>>;
  /** Accounts that reposted a post, latest first (default 100, at most 1000). */
  reposters(postId: string, options?: PageRequest): Promise<Page<NetworkUser>>;
  /** Accounts that liked a post, when the adapter can list them. */
  likers?(postId: string, options?: PageRequest): Promise<Page<NetworkUser>>;

  /** A user's own posts, replies and reposts, newest first. */
  timeline(userId: string, options?: TimelineOptions): Promise<Page<NetworkPost>>;
  search(options: SearchOptions): Promise<Page<NetworkPost>>;
  /** Posts that answer or name `userId` (newest first; default 20, at most 100; 90 days back). */
  mentions(userId: string, options?: WindowPageRequest): Promise<Page<NetworkPost>>;
  /** Default 100 per page, at most 1000. */
  followers(userId: string, options?: PageRequest): Promise<Page<NetworkUser>>;
  /** Default 100 per page, at most 1000. */
  following(userId: string, options?: PageRequest): Promise<Page<NetworkUser>>;

  /** A public list (a private one throws `NetworkPrivateError`). */
  listById(listId: string): Promise<NetworkList>;
  /** Default 100 per page, at most 1000. */
  listMembers(listId: string, options?: PageRequest): Promise<Page<NetworkUser>>;
  /** Posts by the list's members, newest first (default 20, at most 100). */
  listPosts(listId: string, options?: PageRequest): Promise<Page<NetworkPost>>;
  /** Lists a user owns, private ones included (default 100, at most 100). */
  ownedLists(userId: string, options?: PageRequest): Promise<Page<NetworkList>>;

  /**
   * Uploads one file for a post and answers the network's media id, which `publishPost`
   * then attaches (`mediaKeys`). X API v2 needs it (docs/x.md "Media on X"); the simulated
   * world leaves it out and attaches our object keys as they are.
   */
  uploadMedia?(input: UploadMediaInput): Promise<UploadedMedia>;
  publishPost(input: PublishPostInput): Promise<NetworkPost>;
  /** Publishes the parts in order and returns one post per part. */
  publishThread(input: PublishThreadInput): Promise<NetworkPost[]>;
  /** A post of `authorId` matching the query, or undefined: "did it land?" before a retry. */
  findPublished(query: FindPublishedQuery): Promise<NetworkPost | undefined>;
  /** Deletes one of the author's posts (undoes a repost too); deleting again is a no-op. */
  deletePost(authorId: string, postId: string): Promise<void>;
  /** Reposts as `userId`; reposting again returns the existing repost. */
  repost(userId: string, postId: string): Promise<NetworkPost>;
  undoRepost(userId: string, postId: string): Promise<void>;
  publishArticle(input: PublishArticleInput): Promise<NetworkArticle>;
  sendDm(input: SendDmInput): Promise<NetworkDm>;
  /** DMs `userId` sent or received, newest first (default 50, at most 100). */
  directMessages(userId: string, options?: PageRequest): Promise<Page<NetworkDm>>;

  /**
   * The user's follower count at the end of each of the last `days` UTC days, oldest first,
   * when the adapter knows its past (the simulated world does; X API v2 does not, so the
   * content sync's daily snapshots start on its first run there).
   */
  followerHistory?(userId: string, days: number): Promise<FollowerCountOnDay[]>;

  /**
   * Terms people on this network post about (the simulated world's topic subjects), for
   * keyword suggestion and ICP expansion. Absent on X API v2, which has no such list: the
   * local model then works from the ICP's own key phrases.
   */
  vocabulary?(): readonly string[];

  /** The demo world's `x.*` fixtures, when this adapter has them (the simulated world does). */
  demoFixtures?(): NetworkDemoFixtures;
}
