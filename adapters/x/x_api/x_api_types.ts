/**
 * The JSON X API v2 answers, as far as this adapter reads it (docs.x.com, "Data
 * dictionary"). Every field but the ids is optional: X sends only the fields asked for
 * in `tweet.fields`, `user.fields`, `list.fields` and `media.fields`.
 */

/** An `entities.urls` item: X rewrites links to `t.co` and gives the original here. */
export interface XUrlEntity {
  start?: number;
  end?: number;
  url: string;
  expanded_url?: string;
  /** Set on the link X appends for attached media (`pic.x.com/...`). */
  media_key?: string;
}

/** An `entities.mentions` item. */
export interface XMentionEntity {
  start?: number;
  end?: number;
  username: string;
  id?: string;
}

/** A user object. */
export interface XUser {
  id: string;
  username: string;
  name: string;
  description?: string;
  location?: string;
  url?: string;
  profile_image_url?: string;
  created_at?: string;
  protected?: boolean;
  verified?: boolean;
  verified_type?: string;
  subscription_type?: string;
  pinned_tweet_id?: string;
  /** Needs user context on X; absent under app-only auth. */
  receives_your_dm?: boolean;
  public_metrics?: { followers_count?: number; following_count?: number; tweet_count?: number; listed_count?: number };
  entities?: { url?: { urls?: XUrlEntity[] }; description?: { urls?: XUrlEntity[] } };
}

/** A tweet (post) object. */
export interface XTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  conversation_id?: string;
  in_reply_to_user_id?: string;
  referenced_tweets?: { type: "replied_to" | "quoted" | "retweeted"; id: string }[];
  lang?: string;
  public_metrics?: {
    like_count?: number;
    reply_count?: number;
    retweet_count?: number;
    quote_count?: number;
    impression_count?: number;
    bookmark_count?: number;
  };
  entities?: { urls?: XUrlEntity[]; mentions?: XMentionEntity[] };
  attachments?: { media_keys?: string[] };
  /** The full text of a post longer than 280 characters (`text` is then cut short). */
  note_tweet?: { text: string; entities?: { urls?: XUrlEntity[]; mentions?: XMentionEntity[] } };
  /** Set on the post that carries an X Article. */
  article?: { title?: string };
}

/** A media object from `includes.media`. */
export interface XMedia {
  media_key: string;
  type: string;
  url?: string;
  preview_image_url?: string;
  alt_text?: string;
}

/** A list object. */
export interface XList {
  id: string;
  name: string;
  description?: string;
  owner_id?: string;
  private?: boolean;
  member_count?: number;
  follower_count?: number;
  created_at?: string;
}

/** A DM event (`GET /2/dm_events`). */
export interface XDmEvent {
  id: string;
  event_type?: string;
  text?: string;
  sender_id?: string;
  created_at?: string;
  /** `<id>-<id>` for a one-to-one conversation. */
  dm_conversation_id?: string;
}

/** An RFC 7807 problem as X writes it, top level or in `errors[]`. */
export interface XProblem {
  title?: string;
  detail?: string;
  type?: string;
  status?: number;
  resource_type?: string;
  resource_id?: string;
  parameter?: string;
  value?: unknown;
  /** Validation failures: the offending query parameters. */
  parameters?: Record<string, unknown>;
  message?: string;
}

/** Objects expanded beside `data`. */
export interface XIncludes {
  users?: XUser[];
  tweets?: XTweet[];
  media?: XMedia[];
}

/** Any X API v2 answer. */
export interface XBody<T> {
  data?: T;
  includes?: XIncludes;
  meta?: { result_count?: number; next_token?: string };
  errors?: XProblem[];
  title?: string;
  detail?: string;
  type?: string;
}
