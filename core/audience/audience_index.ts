/**
 * `GET /v1/audience/{kind}` (docs/areas.md "Audience"; supplement section 5): a page of the
 * account's followers, following, repliers or reposters from the audience sync's index,
 * never live (no enrichment units). Keyset paging through an opaque cursor: the last row's
 * sort key, so a page never repeats or skips a person while the sync writes between pages
 * (except people the sync removed or re-ranked meanwhile).
 */
import { z } from "zod";
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { planById } from "../plans/plans.ts";
import { AUDIENCE_SYNC_LIMITS } from "./audience_sync_rhythm.ts";
import { audienceSyncStates, ownerPlanOf } from "./audience_sync_queries.ts";
import { type AudienceRow, type EngagerKey, engagerCount, engagerPage, type FollowKey, followListPage } from "./audience_index_queries.ts";
import type { AudienceKind, AudienceMember, ListAudienceInput } from "./audience_index_schema.ts";
import { personOf } from "../people/person_fields.ts";

const followCursor = z.object({ t: z.iso.datetime(), i: z.number().int().min(0), u: z.string().regex(/^[0-9]{1,25}$/) }).strict();
const engagerCursor = z.object({ n: z.number().int().min(0), u: z.string().regex(/^[0-9]{1,25}$/) }).strict();

/** A page of one audience list with where its sync stands. */
export async function listAudience(ctx: AccountContext, input: ListAudienceInput) {
  const { sql } = ctx.services;
  const accountId = ctx.account.id;
  const follow = input.kind === "followers" || input.kind === "following";
  const states = await audienceSyncStates(sql, accountId);
  const state = states.get(follow ? (input.kind as "followers" | "following") : "engagers");
  let rows: AudienceRow[];
  let syncedCount: number;
  if (follow) {
    rows = await followListPage(sql, accountId, input.kind as "followers" | "following", followKeyOf(input.cursor), input.limit + 1);
    syncedCount = state?.synced_count ?? 0;
  } else {
    const by = input.kind === "repliers" ? "replies" : "reposts";
    rows = await engagerPage(sql, accountId, by, engagerKeyOf(input.cursor), input.limit + 1);
    syncedCount = await engagerCount(sql, accountId, by);
  }
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const hasMore = rows.length > input.limit;
  const cap = follow ? planById((await ownerPlanOf(sql, accountId)) ?? "basic").audienceBackfillCap : null;
  return {
    data: page.map(memberOf),
    pagination: { limit: input.limit, has_more: hasMore, next_cursor: hasMore && last ? cursorAfter(input.kind, last) : null },
    meta: {
      kind: input.kind,
      synced_count: syncedCount,
      status: state?.status ?? ("missing" as const),
      backfill_cap: cap,
      is_capped: follow ? (state?.is_capped ?? false) : null,
      window_days: follow ? null : AUDIENCE_SYNC_LIMITS.windowDays,
      account_id: accountId,
      x_account_id: accountId,
      last_synced_at: state?.last_synced_at?.toISOString() ?? null,
    },
  };
}

function memberOf(row: AudienceRow): AudienceMember {
  return {
    id: row.x_user_id,
    ...personOf(row),
    replies_count: row.replies_count,
    reposts_count: row.reposts_count,
    // Supplement section 5: always null on audience lists (ICP scoring belongs to signals).
    icp_score: null,
    icp_rationale: null,
  };
}

/** The cursor after `row`: base64url of its sort key as JSON. */
function cursorAfter(kind: AudienceKind, row: AudienceRow): string {
  const key =
    kind === "followers" || kind === "following"
      ? { t: row.walk_started_at?.toISOString(), i: row.walk_index, u: row.x_user_id }
      : { n: kind === "repliers" ? row.replies_count : row.reposts_count, u: row.x_user_id };
  return btoa(JSON.stringify(key)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function followKeyOf(cursor: string | undefined): FollowKey | undefined {
  if (cursor === undefined) return undefined;
  const key = followCursor.safeParse(decodeCursor(cursor));
  if (!key.success) throw badCursor(cursor);
  return { walkStartedAt: new Date(key.data.t), walkIndex: key.data.i, xUserId: key.data.u };
}

function engagerKeyOf(cursor: string | undefined): EngagerKey | undefined {
  if (cursor === undefined) return undefined;
  const key = engagerCursor.safeParse(decodeCursor(cursor));
  if (!key.success) throw badCursor(cursor);
  return { count: key.data.n, xUserId: key.data.u };
}

function decodeCursor(cursor: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    return JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    return undefined;
  }
}

function badCursor(cursor: string): ApiError {
  return new ApiError("invalid_parameter", `Invalid "cursor": "${cursor.slice(0, 100)}" is not a cursor of this list`);
}
