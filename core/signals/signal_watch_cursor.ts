/**
 * Where a signal's watch stopped reading (`agent_signals.cursor`, migration 0024). Post
 * watches (keywords, lists, a profile's engagers) remember the newest post they saw and
 * the ids sharing its time, so the next run reads only what came after; a follower watch
 * remembers the head of the follower list, since X lists followers newest first without
 * a follow time.
 */
import type { NetworkPost } from "../network/network_records.ts";

/** A signal's cursor as stored (jsonb); null before the first run. */
export interface SignalCursor {
  /** The newest post (or engagement) seen: its time, and the ids posted at that time. */
  newest_at?: string;
  newest_ids?: string[];
  /** Follower watches: the newest followers seen, newest first. */
  head_ids?: string[];
}

/** Whether `post` came after what `cursor` saw (any post after `floor` when there is no cursor). */
export function isNewPost(post: Pick<NetworkPost, "id" | "createdAt">, cursor: SignalCursor | null, floorMs: number): boolean {
  const at = Date.parse(post.createdAt);
  if (!cursor?.newest_at) return at >= floorMs;
  const newest = Date.parse(cursor.newest_at);
  return at > newest || (at === newest && !(cursor.newest_ids ?? []).includes(post.id));
}

/** The cursor after reading `posts` (the new ones) from `cursor`. */
export function advancePostCursor(cursor: SignalCursor | null, posts: readonly Pick<NetworkPost, "id" | "createdAt">[]): SignalCursor {
  let newestMs = cursor?.newest_at ? Date.parse(cursor.newest_at) : Number.NEGATIVE_INFINITY;
  let ids = new Set(cursor?.newest_ids ?? []);
  for (const post of posts) {
    const at = Date.parse(post.createdAt);
    if (at > newestMs) {
      newestMs = at;
      ids = new Set([post.id]);
    } else if (at === newestMs) {
      ids.add(post.id);
    }
  }
  if (!Number.isFinite(newestMs)) return { ...cursor };
  return { ...cursor, newest_at: new Date(newestMs).toISOString(), newest_ids: [...ids] };
}
