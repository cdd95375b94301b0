/**
 * The audience sync of one account (docs/areas.md "Audience"; ARCHITECTURE "Sync jobs"): keeps the
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
import { planById } from "../plans/plans.ts";
import { NetworkError, NetworkRateLimitedError } from "../network/network_errors.ts";
import { type PageWalker, pageWalker } from "../network/page_walker.ts";
import {
  type AudienceSyncList,
  type AudienceSyncState,
  audienceSyncStates,
  contentEngagementVersion,
  type FollowList,
  ownerPlanOf,
  pauseAudienceSync,
  saveAudienceSyncState,
} from "./audience_sync_queries.ts";
import { AUDIENCE_SYNC_LIMITS, type AudienceSyncDeps, isListDue, nextUtcDay } from "./audience_sync_rhythm.ts";
import { syncEngagers } from "./engagers_sync.ts";
import { syncFollowList } from "./follow_list_sync.ts";

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
  // Read before any reading: content the engagers count that commits after it makes them due again.
  const engagementVersion = await contentEngagementVersion(deps.sql, accountId);
  const outcome = {} as AudienceSyncOutcome;
  for (const list of ["followers", "following", "engagers"] as const) {
    const state = states.get(list) ?? freshState(accountId, list);
    outcome[list] = await syncList(deps, state, engagementVersion, options, (walker, now) =>
      list === "engagers"
        ? syncEngagers(deps, state, walker, now, engagementVersion)
        : syncFollowList(deps, state as AudienceSyncState & { kind: FollowList }, cap, walker, now),
    );
  }
  return outcome;
}

/** The bounds, the due check and the pause around one list's run. */
async function syncList(
  deps: AudienceSyncDeps,
  state: AudienceSyncState,
  engagementVersion: number,
  options: AudienceSyncOptions,
  run: (walker: PageWalker, now: Date) => Promise<AudienceSyncState>,
): Promise<AudienceListOutcome> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  if (!options.force && !isListDue(state, nowMs, engagementVersion)) return { result: "not_due", pagesRead: 0, status: state.status };
  const today = now.toISOString().slice(0, 10);
  const usedToday = state.budget_day === today ? state.pages_today : 0;
  const walker = pageWalker(Math.min(options.pagesPerRun ?? AUDIENCE_SYNC_LIMITS.pagesPerRun, AUDIENCE_SYNC_LIMITS.pagesPerDay - usedToday));
  if (walker.left() <= 0) {
    await saveAudienceSyncState(deps.sql, { ...state, next_sync_at: nextUtcDay(nowMs) });
    return { result: "budget_spent", pagesRead: 0, status: state.status };
  }
  try {
    const next = await run(walker, now);
    return { result: "synced", pagesRead: walker.read(), status: next.status };
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    const wait = Math.max(AUDIENCE_SYNC_LIMITS.retrySeconds, error instanceof NetworkRateLimitedError ? error.retryAfter : 0);
    await pauseAudienceSync(deps.sql, state.account_id, state.kind, error.message, new Date(nowMs + wait * 1000));
    return { result: "paused", pagesRead: walker.read(), status: "paused" };
  }
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
    counted_engagement_version: 0,
  };
}
