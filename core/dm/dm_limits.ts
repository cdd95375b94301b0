/**
 * The DM limits (spec: DM limits; docs/areas.md "DM campaigns and auto DM"): a monthly allowance whose
 * `committed` counts queued unsent messages with the sent ones, a rolling 24-hour bulk
 * allowance, and the placement of a campaign's messages within both. Everything is counted
 * from the `dm_messages` rows themselves (one source of truth): a failed, skipped or
 * cancelled message stops counting the moment its row changes, which is how its unit
 * comes back.
 *
 * Choices where the spec is silent: the month is the UTC calendar month, and a message
 * holds a unit of the month its campaign was created in (spread messages that go out early
 * next month stay on this month's bill, so a `spread` never escapes a full month); the
 * "day" of placement is the rolling 24 hours from now, then each following 24 hours.
 *
 * On a network with its own DM window (X: 15 per 15 minutes and 1,440 per 24 hours per
 * user, `x-api/fundamentals/rate-limits.mdx`), a day holds at most the smaller of the plan's
 * and the network's day, and a day's messages are placed `perWindow` to each window, so no
 * campaign is planned faster than the network allows (beyond the spec; docs/x.md "X's rate
 * limits"). The sender still waits for the window at send time, which also covers the DMs of
 * other campaigns.
 */
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import type { AllowanceRefusal, AllowanceState } from "../limits/allowance_outcome.ts";
import { dmLimitError } from "../limits/allowance_errors.ts";
import { type DmAllowance, planById } from "../plans/plans.ts";
import { countCommitted, countPendingBefore, countPlaced, planIdOfAccount } from "./dm_queries.ts";
import { countSentInWindow } from "./dm_send_queries.ts";
import { DAY_MS } from "../time/durations.ts";
import type { NetworkDmWindow } from "../network/network_records.ts";

/** The start of the UTC calendar month holding `ms`. */
export function monthStartOf(ms: number): Date {
  const at = new Date(ms);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The start of the UTC month after the one holding `ms`. */
export function nextMonthStart(ms: number): Date {
  const at = new Date(ms);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** The DM limits of the plan owning `accountId`; null when DMs are not in it. */
export async function dmAllowanceOf(sql: Queryable, accountId: string): Promise<DmAllowance | null> {
  const planId = await planIdOfAccount(sql, accountId);
  return planById(planId ?? "basic").dms;
}

/** `403 dm_not_in_plan` for the account. */
export function dmNotInPlan(): ApiError {
  return new ApiError("dm_not_in_plan", "This account's plan does not include direct messages");
}

/**
 * `GET /v1/dm/limits`: the plan's numbers, the units this month holds (sent plus queued
 * unsent), and the rolling day's use (sent or in flight in the last 24 hours plus pending
 * messages due within the next 24 hours).
 */
export async function readDmLimits(ctx: AccountContext) {
  const { sql, clock } = ctx.services;
  const allowance = await dmAllowanceOf(sql, ctx.account.id);
  if (!allowance) throw dmNotInPlan();
  const now = clock.now();
  const committed = await countCommitted(sql, ctx.account.id, monthStartOf(now));
  const dayUsed = await usedToday(sql, ctx.account.id, now);
  const window = ctx.services.network.info.dmWindow;
  return {
    data: {
      monthly: {
        max: allowance.monthlyMax,
        committed,
        remaining: Math.max(0, allowance.monthlyMax - committed),
        resets_at: nextMonthStart(now).toISOString(),
      },
      daily_bulk: { max: allowance.dailyBulkMax, used: dayUsed, remaining: Math.max(0, allowance.dailyBulkMax - dayUsed), window_hours: 24 as const },
      per_post_max: allowance.perPostMax,
      posts_with_auto_dm: allowance.postsWithAutoDm,
      scheduling_enabled: allowance.schedulingEnabled,
      network_window: window ? await networkWindowOf(sql, ctx.account.id, window, now) : null,
    },
  };
}

/** The network's DM window as `GET /v1/dm/limits` shows it (beyond the spec): its numbers and this account's use of it. */
async function networkWindowOf(sql: Queryable, accountId: string, window: NetworkDmWindow, now: number) {
  const sent = await countSentInWindow(sql, accountId, new Date(now), window.windowMs);
  return {
    max: window.perWindow,
    window_minutes: window.windowMs / 60_000,
    used: sent.used,
    remaining: Math.max(0, window.perWindow - sent.used),
    resets_at: sent.oldest && sent.used >= window.perWindow ? new Date(sent.oldest.getTime() + window.windowMs).toISOString() : null,
    daily_max: window.perDay,
  };
}

/** The rolling day's units as of `now`: sent or in flight in the last 24 h, plus pending due within the next 24 h. */
async function usedToday(sql: Queryable, accountId: string, now: number): Promise<number> {
  const sent = await countSentInWindow(sql, accountId, new Date(now), DAY_MS);
  return sent.used + (await countPendingBefore(sql, accountId, new Date(now + DAY_MS)));
}

/** Where a campaign's messages go: a send time per placed message, and how many did not fit. */
export interface Placement {
  sendAfter: Date[];
  queuedNow: number;
  overflow: number;
}

/**
 * Places `count` messages for the account (inside the create's transaction, after
 * `lockDmAccount`): first the month (`429 dm_limit_reached` scope `month` when it cannot
 * hold them all), then the rolling day. What today cannot hold is, with `spread` on a plan
 * with scheduling, placed at the start of each following 24 hours with room; without
 * `spread` it is `429` scope `day`; on a plan without scheduling (`spread` ignored, spec DM
 * limits) it is `overflow`, which the caller counts in `skipped` (still `429 day` when today
 * has no room at all, as nothing could be queued).
 */
export async function placeMessages(
  tx: Queryable,
  request: { accountId: string; allowance: DmAllowance; now: number; count: number; spread: boolean; networkWindow?: NetworkDmWindow },
): Promise<Placement> {
  const { accountId, now, count, networkWindow } = request;
  // The network's day caps the plan's (X: 1,440 DMs per 24 hours per user).
  const allowance = networkWindow ? { ...request.allowance, dailyBulkMax: Math.min(request.allowance.dailyBulkMax, networkWindow.perDay) } : request.allowance;
  // The k-th message placed in a day goes out in the day's (k / perWindow)-th window of the network.
  const paced = (from: number, k: number) => new Date(networkWindow ? from + Math.floor(k / networkWindow.perWindow) * networkWindow.windowMs : from);
  if (count === 0) return { sendAfter: [], queuedNow: 0, overflow: 0 };
  const committed = await countCommitted(tx, accountId, monthStartOf(now));
  if (committed + count > allowance.monthlyMax) {
    const resetAt = Math.ceil(nextMonthStart(now).getTime() / 1000);
    throw dmLimitError(refusal("dm_monthly", allowance.monthlyMax, committed, count, resetAt, now), { scope: "month" });
  }
  const room = Math.max(0, allowance.dailyBulkMax - (await usedToday(tx, accountId, now)));
  const queuedNow = Math.min(room, count);
  const sendAfter: Date[] = Array.from({ length: queuedNow }, (_, k) => paced(now, k));
  let left = count - queuedNow;
  const spread = request.spread && allowance.schedulingEnabled;
  const refused = allowance.schedulingEnabled ? !spread : room === 0;
  if (left > 0 && refused) {
    const sent = await countSentInWindow(tx, accountId, new Date(now), DAY_MS);
    const resetAt = Math.ceil(((sent.oldest?.getTime() ?? now) + DAY_MS) / 1000);
    throw dmLimitError(refusal("dm_daily_bulk", allowance.dailyBulkMax, allowance.dailyBulkMax - room, count, resetAt, now), { scope: "day" });
  }
  if (!spread) return { sendAfter, queuedNow, overflow: left };
  // Spread: each following 24 hours takes what it has room for (messages already placed
  // there by earlier campaigns count); a campaign holds at most 100, so this ends quickly.
  for (let day = 1; left > 0; day++) {
    const from = new Date(now + day * DAY_MS);
    const dayRoom = Math.max(0, allowance.dailyBulkMax - (await countPlaced(tx, accountId, from, new Date(from.getTime() + DAY_MS))));
    const take = Math.min(dayRoom, left);
    for (let i = 0; i < take; i++) sendAfter.push(paced(from.getTime(), i));
    left -= take;
  }
  return { sendAfter, queuedNow, overflow: 0 };
}

function refusal(name: string, limit: number, used: number, units: number, resetAt: number, checkedAt: number): AllowanceRefusal {
  const state: AllowanceState = { name, scope: "account", limit, units, used, remaining: Math.max(0, limit - used), resetAt };
  return { status: "refused", checkedAt, allowances: [state], blocked: state };
}
