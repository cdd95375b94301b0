/**
 * How a person and a post read from the network become a dataset row's columns, one mapper
 * for every source (collections, research, refine copies, the demo world).
 */
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { postUrl } from "../network/post_url.ts";
import type { NewDatasetRow } from "./datasets_queries.ts";

/** The person columns of `user`. */
export function personColumns(user: NetworkUser): Omit<NewDatasetRow, "key"> {
  return {
    x_user_id: user.id,
    handle: user.username,
    name: user.name,
    bio: user.description,
    location: user.location,
    website: user.url,
    avatar_url: user.avatarUrl,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    verified: user.verified,
    can_dm: user.canDm,
  };
}

/** The post columns of `post` by `authorHandle` (its counters as read now). */
export function postColumns(post: NetworkPost, authorHandle: string): Omit<NewDatasetRow, "key"> {
  return {
    post_id: post.id,
    post_text: post.text,
    post_url: postUrl(authorHandle, post.id),
    posted_at: new Date(post.createdAt),
    likes: post.metrics.likes,
    replies: post.metrics.replies,
    reposts: post.metrics.reposts,
    quotes: post.metrics.quotes,
    impressions: post.metrics.impressions,
  };
}
