/**
 * The content sync of one account (docs/areas.md "Content and analytics"; ARCHITECTURE "Sync jobs"): reads the account's
 * timeline and the replies it received through the social network port and stores them,
 * with a daily snapshot of its profile counters, so the content and analytics endpoints
 * answer from the database. Incremental: each run re-reads the last week (metrics move) and
 * continues the year-long backfill where the previous run stopped. Bounded: pages per run
 * and per UTC day; a page is never read twice in a run. All-or-nothing: everything read is
 * written in one transaction at the end, so a failing network call leaves the stored state
 * exactly as it was (the job retries).
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { pageWalker } from "../network/page_walker.ts";
import { profilesOf } from "../network/profiles_of.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import {
  bringsNewEngagement,
  bumpEngagementVersion,
  type ContentSyncState,
  type DailyStatsRow,
  deleteUnseenOwnPosts,
  linkScheduledPosts,
  markThreadStarts,
  ownPostTexts,
  refreshPostDays,
  saveSyncState,
  syncStateOf,
  upsertDailyStats,
  upsertOwnPosts,
  upsertReceivedReplies,
} from "./content_sync_queries.ts";
import { isReceivedReply, ownPostRow, receivedReplyRow } from "./own_content_rows.ts";
import { DAY_MS } from "../time/durations.ts";

/** The sync's bounds. */
export const CONTENT_SYNC_LIMITS = {
  /** Network pages one run reads at most (timeline and mentions together). */
  pagesPerRun: 20,
  /** Network pages one account's sync reads per UTC day at most. */
  pagesPerDay: 400,
  /** Items per page asked for (the port's maximum). */
  pageSize: 100,
  /** Recent posts re-read every run so their counters stay current. */
  refreshDays: 7,
  /** How far back the backfill reaches (the analytics range). */
  historyDays: 366,
  /** How far back received replies are read (the network's mention window). */
  repliesDays: 90,
  /** Days of follower history recorded on the first run, when the network knows them. */
  snapshotDays: 90,
  /** Time between two syncs of an account. */
  everySeconds: 15 * 60,
} as const;

/** What the sync needs: the job runner's deps or the server's services. */
export interface ContentSyncDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
}

/** What one run did. */
export interface ContentSyncOutcome {
  pagesRead: number;
  postsStored: number;
  postsRemoved: number;
  repliesStored: number;
  daysRecorded: number;
  /** It stored a received reply not stored before or a repost counter that moved (the engagers are due again). */
  engagementStored: boolean;
  /** The year-long backfill has reached its end. */
  backfillDone: boolean;
  /** The day's page budget was used up before this run. */
  skipped: boolean;
}

/** Runs one bounded sync of `accountId` (its id is its network user id). */
export async function syncAccountContent(deps: ContentSyncDeps, accountId: string, options: { pagesPerRun?: number } = {}): Promise<ContentSyncOutcome> {
  const { network, clock } = deps;
  const nowMs = clock.now();
  const now = new Date(nowMs);
  const today = now.toISOString().slice(0, 10);
  const state = (await syncStateOf(deps.sql, accountId)) ?? freshState(accountId);
  const usedToday = state.budget_day === today ? state.pages_today : 0;
  const walker = pageWalker(Math.min(options.pagesPerRun ?? CONTENT_SYNC_LIMITS.pagesPerRun, CONTENT_SYNC_LIMITS.pagesPerDay - usedToday));
  const outcome: ContentSyncOutcome = {
    pagesRead: 0,
    postsStored: 0,
    postsRemoved: 0,
    repliesStored: 0,
    daysRecorded: 0,
    engagementStored: false,
    backfillDone: state.backfill_done,
    skipped: false,
  };
  if (walker.left() <= 0) return { ...outcome, skipped: true };

  const horizon = nowMs - CONTENT_SYNC_LIMITS.historyDays * DAY_MS;
  const posts = new Map<string, NetworkPost>();
  const timeline = (since: number) => (cursor: string | undefined) =>
    network.timeline(accountId, { since: new Date(since).toISOString(), cursor, limit: CONTENT_SYNC_LIMITS.pageSize });

  // 1. The recent walk: from the newest post down to a week before the newest stored one
  // (the whole year on the first run; what it cannot finish becomes the backfill).
  const refreshFrom = state.newest_posted_at ? Math.max(state.newest_posted_at.getTime() - CONTENT_SYNC_LIMITS.refreshDays * DAY_MS, horizon) : horizon;
  const recent = await walker.walk(`timeline since ${refreshFrom}`, timeline(refreshFrom), undefined, (post) => {
    posts.set(post.id, post);
  });
  const next: ContentSyncState = { ...state };
  if (!state.newest_posted_at) {
    next.backfill_cursor = recent.stoppedAt ?? null;
    next.backfill_done = recent.complete;
  }
  // 2. The backfill continues where the last run stopped.
  if (state.newest_posted_at && !state.backfill_done && state.backfill_cursor && walker.left() > 0) {
    const backfill = await walker.walk(`timeline since ${horizon}`, timeline(horizon), state.backfill_cursor, (post) => {
      posts.set(post.id, post);
    });
    next.backfill_cursor = backfill.stoppedAt ?? null;
    next.backfill_done = backfill.complete;
  }
  // 3. Replies the account received since a little before the newest stored one.
  const repliesFrom = Math.max(state.replies_newest_at ? state.replies_newest_at.getTime() - 2 * DAY_MS : 0, nowMs - CONTENT_SYNC_LIMITS.repliesDays * DAY_MS);
  const receivedById = new Map<string, NetworkPost>();
  const mentions = await walker.walk(
    "mentions",
    (cursor) => network.mentions(accountId, { since: new Date(repliesFrom).toISOString(), cursor, limit: CONTENT_SYNC_LIMITS.pageSize }),
    undefined,
    (post) => {
      if (isReceivedReply(accountId, post)) receivedById.set(post.id, post);
    },
  );
  const received = [...receivedById.values()];
  const repliers = await profilesOf(network, [...new Set(received.map((reply) => reply.authorId))]);
  const profile = await network.userById(accountId);
  const history = !state.history_loaded && network.followerHistory ? await network.followerHistory(accountId, CONTENT_SYNC_LIMITS.snapshotDays) : [];

  // Everything read; now one transaction writes it.
  const ownRows = [...posts.values()].filter((post) => post.authorId === accountId).map((post) => ownPostRow(accountId, post, now));
  const ownIds = ownRows.map((row) => row.x_post_id);
  await deps.sql.begin(async (tx) => {
    // Read before the writes: whether they bring replies or reposts the audience sync has not counted.
    const storedReplies = received.filter((reply) => repliers.has(reply.authorId)).map((reply) => reply.id);
    const newEngagement = await bringsNewEngagement(tx, accountId, storedReplies, ownRows);
    let removedDays: string[] = [];
    await upsertOwnPosts(tx, ownRows);
    await markThreadStarts(tx, accountId, ownIds);
    await linkScheduledPosts(tx, accountId, ownIds);
    if (recent.complete) {
      // A complete read of [refreshFrom, now) saw every post still there; the rest were deleted.
      const seenRecent = ownRows.filter((row) => row.posted_at.getTime() >= refreshFrom).map((row) => row.x_post_id);
      removedDays = await deleteUnseenOwnPosts(tx, accountId, new Date(refreshFrom), now, seenRecent);
      outcome.postsRemoved = removedDays.length;
    }
    await refreshPostDays(tx, accountId, [...removedDays, ...ownRows.map((row) => row.posted_at.toISOString().slice(0, 10))]);
    const answered = await ownPostTexts(tx, accountId, [...new Set(received.map((reply) => reply.replyToId ?? ""))]);
    const replyRows = received.flatMap((reply) => {
      const replier = repliers.get(reply.authorId);
      return replier ? [receivedReplyRow(accountId, reply, replier, answered.get(reply.replyToId ?? ""), now)] : [];
    });
    await upsertReceivedReplies(tx, replyRows);
    const days: DailyStatsRow[] = history
      .filter((entry) => entry.day < today)
      .map((entry) => ({ account_id: accountId, day: entry.day, followers_count: entry.followers, following_count: null, post_count: null, recorded_at: now }));
    days.push({
      account_id: accountId,
      day: today,
      followers_count: profile.followersCount,
      following_count: profile.followingCount,
      post_count: profile.postCount,
      recorded_at: now,
    });
    await upsertDailyStats(tx, days);

    const newest = ownRows.reduce((max, row) => Math.max(max, row.posted_at.getTime()), state.newest_posted_at?.getTime() ?? 0);
    // The newest mark moves only when the recent walk reached its lower end, so no gap is left behind it.
    if (recent.complete || !state.newest_posted_at) next.newest_posted_at = newest > 0 ? new Date(newest) : state.newest_posted_at;
    if (!next.newest_posted_at && recent.complete) next.newest_posted_at = now;
    const newestReply = received.reduce((max, reply) => Math.max(max, Date.parse(reply.createdAt)), state.replies_newest_at?.getTime() ?? 0);
    if (mentions.complete && newestReply > 0) next.replies_newest_at = new Date(newestReply);
    next.history_loaded = state.history_loaded || history.length > 0 || !network.followerHistory;
    next.budget_day = today;
    next.pages_today = usedToday + walker.read();
    next.last_synced_at = now;
    next.next_sync_at = new Date(nowMs + CONTENT_SYNC_LIMITS.everySeconds * 1000);
    await saveSyncState(tx, next);
    // The engagers' recount follows (core/audience/audience_sync_rhythm.ts `isListDue`): they
    // may have counted before this commit, and would otherwise wait out their hour.
    if (newEngagement) await bumpEngagementVersion(tx, accountId);
    outcome.engagementStored = newEngagement;
    outcome.postsStored = ownRows.length;
    outcome.repliesStored = replyRows.length;
    outcome.daysRecorded = days.length;
  });
  return { ...outcome, pagesRead: walker.read(), backfillDone: next.backfill_done };
}

function freshState(accountId: string): ContentSyncState {
  return {
    account_id: accountId,
    newest_posted_at: null,
    backfill_cursor: null,
    backfill_done: false,
    replies_newest_at: null,
    history_loaded: false,
    budget_day: null,
    pages_today: 0,
    last_synced_at: null,
    next_sync_at: null,
  };
}
