/**
 * The audience sync of one account (issue 13, scope 3; ARCHITECTURE "Sync jobs"): keeps the
 * audience index (followers, following) and the engagers (repliers, reposters of the last
 * 90 days) current through the social network port, so `GET /v1/audience/{kind}` answers
 * from the database.
 *
 * Followers and following are walked page by page, across runs (`walk_cursor`), up to the
 * owner's plan cap; a finished walk removes the people it did not see again (unfollows).
 * Between two walks (one a day) a run reads only the first page, where X lists the newest
 * followers, and adds newcomers. Engagers: repliers come from the content sync's received
 * replies, reposters from re-reading the reposters of own posts whose counter moved.
 *
 * Each list is all-or-nothing per run: everything is read first, then written in one
 * transaction. A failing network call writes nothing but the list's `paused` state (its
 * error and retry time), so the index is never half-written and the next run resumes.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { planById } from "../limits/plans.ts";
import { NetworkError, NetworkRateLimitedError, NetworkUpstreamError } from "../network/network_errors.ts";
import type { NetworkUser } from "../network/network_records.ts";
import { type PageReader, pageReader } from "../network/page_reader.ts";
import { profilesOf } from "../network/profiles_of.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import {
  type AudienceMemberRow,
  type AudienceRepostRow,
  type AudienceSyncList,
  type AudienceSyncState,
  audienceMemberCount,
  audienceSyncStates,
  deleteOlderGenerations,
  engagedContactCount,
  type FollowList,
  insertAudienceReposts,
  insertNewAudienceMembers,
  ownerPlanOf,
  pauseAudienceSync,
  postsDueForRepostRead,
  pruneAudienceReposts,
  type RepostReadRow,
  repliersWithoutContact,
  saveAudienceSyncState,
  saveRepostReads,
  upsertAudienceMembers,
} from "./audience_sync_queries.ts";
import { recountEngagement, upsertContactProfiles } from "./contacts_queries.ts";

const DAY_MS = 86_400_000;

/** The sync's bounds and rhythm. */
export const AUDIENCE_SYNC_LIMITS = {
  /** Network pages one run reads at most, per list. */
  pagesPerRun: 10,
  /** Network pages one list of one account reads per UTC day at most. */
  pagesPerDay: 200,
  /** People per page asked for (the port's maximum for followers, following and reposters). */
  pageSize: 1000,
  /** The engagement window (spec: Contact list member, `engaged_count`). */
  windowDays: 90,
  /** Time between two runs of a list that is up to date (newcomers, engagers). */
  everySeconds: 60 * 60,
  /** Time before the next run of a list whose walk or reading the run's budget cut. */
  continueSeconds: 5 * 60,
  /** A new full walk of followers and following starts this long after the last complete one. */
  rewalkSeconds: 24 * 60 * 60,
  /** Retry time of a paused list (a rate limit's own wait when longer). */
  retrySeconds: 15 * 60,
} as const;

/** What the sync needs: the job runner's deps or the server's services. */
export interface AudienceSyncDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
}

/** What one run did to one list. */
export interface AudienceListOutcome {
  /** `not_due`: its next run is later; `budget_spent`: the day's pages are used up. */
  result: "synced" | "not_due" | "budget_spent" | "paused";
  pagesRead: number;
  status: AudienceSyncState["status"];
}

/** What one run did, per list. */
export type AudienceSyncOutcome = Record<AudienceSyncList, AudienceListOutcome>;

/** How a run may be bounded differently (the demo, tests). */
export interface AudienceSyncOptions {
  pagesPerRun?: number;
  /** Sync every list now, even one whose next run is later. */
  force?: boolean;
}

/** Runs one bounded sync of the three lists of `accountId` (its id is its network user id). */
export async function syncAccountAudience(deps: AudienceSyncDeps, accountId: string, options: AudienceSyncOptions = {}): Promise<AudienceSyncOutcome> {
  const states = await audienceSyncStates(deps.sql, accountId);
  const cap = planById((await ownerPlanOf(deps.sql, accountId)) ?? "basic").audienceBackfillCap;
  const outcome = {} as AudienceSyncOutcome;
  for (const list of ["followers", "following", "engagers"] as const) {
    const state = states.get(list) ?? freshState(accountId, list);
    outcome[list] = await syncList(deps, state, options, (reader, now) =>
      list === "engagers" ? syncEngagers(deps, state, reader, now) : syncFollowList(deps, state as AudienceSyncState & { kind: FollowList }, cap, reader, now),
    );
  }
  return outcome;
}

/** The bounds, the due check and the pause around one list's run. */
async function syncList(
  deps: AudienceSyncDeps,
  state: AudienceSyncState,
  options: AudienceSyncOptions,
  run: (reader: PageReader, now: Date) => Promise<AudienceSyncState>,
): Promise<AudienceListOutcome> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  if (!options.force && state.next_sync_at && state.next_sync_at.getTime() > nowMs) return { result: "not_due", pagesRead: 0, status: state.status };
  const today = now.toISOString().slice(0, 10);
  const usedToday = state.budget_day === today ? state.pages_today : 0;
  const reader = pageReader(Math.min(options.pagesPerRun ?? AUDIENCE_SYNC_LIMITS.pagesPerRun, AUDIENCE_SYNC_LIMITS.pagesPerDay - usedToday));
  if (reader.left() <= 0) {
    await saveAudienceSyncState(deps.sql, { ...state, next_sync_at: nextUtcDay(nowMs) });
    return { result: "budget_spent", pagesRead: 0, status: state.status };
  }
  try {
    const next = await run(reader, now);
    return { result: "synced", pagesRead: reader.read(), status: next.status };
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    const wait = Math.max(AUDIENCE_SYNC_LIMITS.retrySeconds, error instanceof NetworkRateLimitedError ? error.retryAfter : 0);
    await pauseAudienceSync(deps.sql, state.account_id, state.kind, error.message, new Date(nowMs + wait * 1000));
    return { result: "paused", pagesRead: reader.read(), status: "paused" };
  }
}

/** One run of followers or following: the walk's next pages, or the first page between walks. */
async function syncFollowList(
  deps: AudienceSyncDeps,
  state: AudienceSyncState & { kind: FollowList },
  cap: number,
  reader: PageReader,
  now: Date,
): Promise<AudienceSyncState> {
  const { network } = deps;
  const { account_id: accountId, kind } = state;
  const fetchPage = (cursor: string | undefined) => network[kind](accountId, { cursor, limit: AUDIENCE_SYNC_LIMITS.pageSize });
  const users = new Map<string, NetworkUser>();
  const walking = state.walk_started_at !== null;
  const rewalkDue = !state.last_complete_at || now.getTime() - state.last_complete_at.getTime() >= AUDIENCE_SYNC_LIMITS.rewalkSeconds * 1000;

  if (!walking && !rewalkDue) {
    // Between walks: X lists the newest followers first, so page 1 holds the newcomers.
    await reader.walk(`${kind} head`, fetchPage, undefined, (user) => {
      users.set(user.id, user);
      return false;
    });
    const newcomers = [...users.values()].map((user, index) => memberRow(state, user, now, index, state.generation));
    const next = { ...state, ...spent(state, reader, now), status: "complete" as const, last_error: null };
    await deps.sql.begin(async (tx) => {
      await upsertContactProfiles(tx, accountId, [...users.values()], now);
      await insertNewAudienceMembers(tx, newcomers);
      next.synced_count = await audienceMemberCount(tx, accountId, kind);
      next.next_sync_at = nextRun(next, now, AUDIENCE_SYNC_LIMITS.everySeconds);
      await saveAudienceSyncState(tx, next);
    });
    return next;
  }

  const generation = walking ? state.generation : state.generation + 1;
  const startedAt = state.walk_started_at ?? now;
  let seen = walking ? state.walk_seen : 0;
  let dropped = false;
  const members: AudienceMemberRow[] = [];
  const end = await reader.walk(kind, fetchPage, walking ? (state.walk_cursor ?? undefined) : undefined, (user) => {
    if (seen >= cap) {
      dropped = true;
      return false;
    }
    if (!users.has(user.id)) {
      users.set(user.id, user);
      members.push(memberRow(state, user, startedAt, seen, generation));
      seen += 1;
    }
    return seen < cap;
  });
  const capped = seen >= cap;
  const finished = end.complete || capped;
  if (!finished && end.stoppedAt === undefined) throw new NetworkUpstreamError(`X listed a page of "${kind}" twice in one walk`);

  const next: AudienceSyncState = { ...state, ...spent(state, reader, now), generation, last_error: null };
  if (finished) {
    Object.assign(next, {
      status: "complete",
      walk_cursor: null,
      walk_started_at: null,
      walk_seen: 0,
      is_capped: capped && (dropped || !end.complete),
      last_complete_at: now,
    });
  } else {
    // A re-walk runs behind a complete index: the list stays `complete` until it ends.
    Object.assign(next, { status: state.last_complete_at ? "complete" : "running", walk_cursor: end.stoppedAt, walk_started_at: startedAt, walk_seen: seen });
  }
  await deps.sql.begin(async (tx) => {
    await upsertContactProfiles(tx, accountId, [...users.values()], now);
    await upsertAudienceMembers(tx, members);
    if (finished) await deleteOlderGenerations(tx, accountId, kind, generation);
    next.synced_count = await audienceMemberCount(tx, accountId, kind);
    next.next_sync_at = nextRun(next, now, finished ? AUDIENCE_SYNC_LIMITS.everySeconds : AUDIENCE_SYNC_LIMITS.continueSeconds);
    await saveAudienceSyncState(tx, next);
  });
  return next;
}

/** One run of the engagers: profiles of new repliers, reposters of posts whose counter moved, then the recount. */
async function syncEngagers(deps: AudienceSyncDeps, state: AudienceSyncState, reader: PageReader, now: Date): Promise<AudienceSyncState> {
  const { sql, network } = deps;
  const accountId = state.account_id;
  const since = new Date(now.getTime() - AUDIENCE_SYNC_LIMITS.windowDays * DAY_MS);
  const repliers = await profilesOf(network, await repliersWithoutContact(sql, accountId, since));
  const reposters = new Map<string, NetworkUser>();
  const reposts = new Map<string, AudienceRepostRow>();
  const reads: RepostReadRow[] = [];
  let cut = false;
  for (const post of await postsDueForRepostRead(sql, accountId, since)) {
    if (reader.left() <= 0) {
      cut = true;
      break;
    }
    const fresh = reader.read() === 0;
    // The network lists reposters without a time: the earliest moment each can have
    // reposted is the post's time on its first read, the previous read's time after that.
    const engagedAt = post.read_at ?? post.posted_at;
    const end = await reader.walk(
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
    ...spent(state, reader, now),
    status: cut ? "running" : "complete",
    last_error: null,
    last_complete_at: cut ? state.last_complete_at : now,
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

function memberRow(
  state: AudienceSyncState & { kind: FollowList },
  user: NetworkUser,
  walkStartedAt: Date,
  index: number,
  generation: number,
): AudienceMemberRow {
  return { account_id: state.account_id, kind: state.kind, x_user_id: user.id, walk_started_at: walkStartedAt, walk_index: index, generation };
}

/** The day's page count after this run. */
function spent(state: AudienceSyncState, reader: PageReader, now: Date): Pick<AudienceSyncState, "budget_day" | "pages_today" | "last_synced_at"> {
  const today = now.toISOString().slice(0, 10);
  const usedToday = state.budget_day === today ? state.pages_today : 0;
  return { budget_day: today, pages_today: usedToday + reader.read(), last_synced_at: now };
}

/** The next run in `seconds`, or at the next UTC day when today's pages are used up. */
function nextRun(state: AudienceSyncState, now: Date, seconds: number): Date {
  if (state.pages_today >= AUDIENCE_SYNC_LIMITS.pagesPerDay) return nextUtcDay(now.getTime());
  return new Date(now.getTime() + seconds * 1000);
}

function nextUtcDay(nowMs: number): Date {
  return new Date((Math.floor(nowMs / DAY_MS) + 1) * DAY_MS);
}

function freshState(accountId: string, kind: AudienceSyncList): AudienceSyncState {
  return {
    account_id: accountId,
    kind,
    status: "pending",
    generation: 0,
    walk_cursor: null,
    walk_started_at: null,
    walk_seen: 0,
    synced_count: 0,
    is_capped: false,
    last_error: null,
    last_complete_at: null,
    budget_day: null,
    pages_today: 0,
    last_synced_at: null,
    next_sync_at: null,
  };
}
