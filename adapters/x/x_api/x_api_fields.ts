/**
 * The fields and expansions every read asks for. X API v2 answers only `id` and
 * `text` (users: `id`, `name`, `username`) unless asked, so these lists are what make
 * a full NetworkPost / NetworkUser / NetworkList possible.
 */

/**
 * User fields. `entities` carries the expanded links of `url` and `description` (X
 * rewrites them to t.co); `receives_your_dm` needs user context and is simply absent
 * under app-only auth (then a profile reads as open to DMs, see x_user_record.ts).
 */
export const USER_FIELDS =
  "created_at,description,entities,location,url,profile_image_url,protected,verified,verified_type,public_metrics,pinned_tweet_id,subscription_type,receives_your_dm";

/** Query parameters of a request that answers users. */
export const USER_PARAMS: Record<string, string> = { "user.fields": USER_FIELDS };

/**
 * Query parameters of a request that answers posts. `referenced_tweets.id` expands the
 * post replied to, so a self-reply can be told apart as a thread continuation;
 * `note_tweet` holds the full text of posts past 280 characters; `article` marks the
 * post carrying an X Article.
 */
export const TWEET_PARAMS: Record<string, string> = {
  "tweet.fields": "created_at,author_id,public_metrics,conversation_id,referenced_tweets,in_reply_to_user_id,lang,entities,attachments,note_tweet,article",
  expansions: "author_id,attachments.media_keys,referenced_tweets.id",
  "media.fields": "media_key,type,url,preview_image_url,alt_text",
  "user.fields": USER_FIELDS,
};

/** Query parameters of a request that answers lists. */
export const LIST_PARAMS: Record<string, string> = {
  "list.fields": "created_at,description,follower_count,member_count,owner_id,private",
};

/** Query parameters of `GET /2/dm_events`. */
export const DM_EVENT_PARAMS: Record<string, string> = {
  "dm_event.fields": "id,event_type,text,sender_id,created_at,dm_conversation_id",
  event_types: "MessageCreate",
};
