/**
 * One run of the engagers of the audience sync: profiles of new repliers (from the content
 * sync's received replies), the reposters of own posts of the last 90 days whose repost
 * counter moved, then the recount of every contact's engagement, in one transaction. The
 * run records the content's engagement version it counted from (read before it read
 * anything), so content committed during the run makes the engagers due again.
 */
import type { NetworkUser } from "../network/network_records.ts";
import type { PageWalker } from "../network/page_walker.ts";
import { profilesOf } from "../network/profiles_of.ts";
import {
  type AudienceRepostRow,
  type AudienceSyncState,
  engagedContactCount,
  insertAudienceReposts,
  postsDueForRepostRead,
  pruneAudienceReposts,
  type RepostReadRow,
  repliersWithoutContact,
  saveAudienceSyncState,
  saveRepostReads,
} from "./audience_sync_queries.ts";
import { AUDIENCE_SYNC_LIMITS, type AudienceSyncDeps, nextRun, spent } from "./audience_sync_rhythm.ts";
import { DAY_MS } from "../time/durations.ts";
import { recountEngagement } from "./contacts_queries.ts";
import { upsertContactProfiles } from "../people/contact_profiles_queries.ts";

/** One run of the engagers: profiles of new repliers, reposters of posts whose counter moved, then the recount. */
export async function syncEngagers(
  deps: AudienceSyncDeps,
  state: AudienceSyncState,
  walker: PageWalker,
  now: Date,
  engagementVersion: number,
): Promise<AudienceSyncState> {
  const { sql, network } = deps;
  const accountId = state.account_id;
  const since = new Date(now.getTime() - AUDIENCE_SYNC_LIMITS.windowDays * DAY_MS);
  const repliers = await profilesOf(network, await repliersWithoutContact(sql, accountId, since));
  const reposters = new Map<string, NetworkUser>();
  const reposts = new Map<string, AudienceRepostRow>();
  const reads: RepostReadRow[] = [];
  let cut = false;
  for (const post of await postsDueForRepostRead(sql, accountId, since)) {
    if (walker.left() <= 0) {
      cut = true;
      break;
    }
    const fresh = walker.read() === 0;
    // The network lists reposters without a time: the earliest moment each can have
    // reposted is the post's time on its first read, the previous read's time after that.
    const engagedAt = post.read_at ?? post.posted_at;
    const end = await walker.walk(
      `reposters of ${post.x_post_id}`,
      (cursor) => network.reposters(post.x_post_id, { cursor, limit: AUDIENCE_SYNC_LIMITS.pageSize }),
      undefined,
      (user) => {
        reposters.set(user.id, user);
        reposts.set(`${post.x_post_id}:${user.id}`, { account_id: accountId, x_post_id: post.x_post_id, x_user_id: user.id, engaged_at: engagedAt });
      },
    );
    const stopped = end.stoppedAt !== undefined;
    if (stopped) cut = true;
    // A post with more reposters than a whole run reads counts as read after one run's worth
    // (the latest reposters, listed first); otherwise it would be re-read forever.
    if (!stopped || fresh) reads.push({ account_id: accountId, x_post_id: post.x_post_id, reposts_count: post.reposts, read_at: now });
  }

  const next: AudienceSyncState = {
    ...state,
    ...spent(state, walker, now),
    status: cut ? "running" : "complete",
    last_error: null,
    last_complete_at: cut ? state.last_complete_at : now,
    counted_engagement_version: engagementVersion,
  };
  await sql.begin(async (tx) => {
    await upsertContactProfiles(tx, accountId, [...repliers.values(), ...reposters.values()], now);
    await insertAudienceReposts(tx, [...reposts.values()]);
    await saveRepostReads(tx, reads);
    await pruneAudienceReposts(tx, accountId, since);
    await recountEngagement(tx, accountId, since);
    next.synced_count = await engagedContactCount(tx, accountId);
    next.next_sync_at = nextRun(next, now, cut ? AUDIENCE_SYNC_LIMITS.continueSeconds : AUDIENCE_SYNC_LIMITS.everySeconds);
    await saveAudienceSyncState(tx, next);
  });
  return next;
}
