/**
 * One run of a follow list (followers or following) of the audience sync: the walk's next
 * pages up to the plan's cap, across runs, removing at its end the people it did not see
 * again (unfollows); between two walks (one a day) only the first page, where X lists the
 * newest followers. Everything read is written in one transaction.
 */
import type { NetworkUser } from "../network/network_records.ts";
import { NetworkUpstreamError } from "../network/network_errors.ts";
import type { PageWalker } from "../network/page_walker.ts";
import {
  type AudienceMemberRow,
  type AudienceSyncState,
  audienceMemberCount,
  deleteOlderGenerations,
  type FollowList,
  insertNewAudienceMembers,
  saveAudienceSyncState,
  upsertAudienceMembers,
} from "./audience_sync_queries.ts";
import { AUDIENCE_SYNC_LIMITS, type AudienceSyncDeps, nextRun, spent } from "./audience_sync_rhythm.ts";
import { upsertContactProfiles } from "../people/contact_profiles_queries.ts";

/** One run of followers or following: the walk's next pages, or the first page between walks. */
export async function syncFollowList(
  deps: AudienceSyncDeps,
  state: AudienceSyncState & { kind: FollowList },
  cap: number,
  walker: PageWalker,
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
    await walker.walk(`${kind} head`, fetchPage, undefined, (user) => {
      users.set(user.id, user);
      return false;
    });
    const newcomers = [...users.values()].map((user, index) => memberRow(state, user, now, index, state.generation));
    const next = { ...state, ...spent(state, walker, now), status: "complete" as const, last_error: null };
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
  const end = await walker.walk(kind, fetchPage, walking ? (state.walk_cursor ?? undefined) : undefined, (user) => {
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

  const next: AudienceSyncState = { ...state, ...spent(state, walker, now), generation, last_error: null };
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

function memberRow(
  state: AudienceSyncState & { kind: FollowList },
  user: NetworkUser,
  walkStartedAt: Date,
  index: number,
  generation: number,
): AudienceMemberRow {
  return { account_id: state.account_id, kind: state.kind, x_user_id: user.id, walk_started_at: walkStartedAt, walk_index: index, generation };
}
