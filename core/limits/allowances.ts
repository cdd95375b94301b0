/**
 * Daily allowances and per-day action caps (issue "Platform II" scope 3; spec Limits
 * 5, 7, 8, 11 and AI credits, per-day caps): counted per UTC day for the account owner
 * or once for the whole installation, charged all or nothing across several
 * allowances, failing closed when the counters cannot answer (spec rule 9).
 *
 * The counts live in `services.allowanceCounters` (Redis with `REDIS_URL`, else this
 * process's memory), in fixed 86 400 s windows, which the Counters port aligns to the
 * UTC day: every allowance here resets at midnight UTC (spec Limits 7, 8, 11).
 *
 * @example
 * // A live post lookup with quotes: 2 units of the owner's 300 and of the platform ceiling.
 * await requireAllowances(ctx, ctx.principal.mainAccountId,
 *   [{ spec: LIVE_LOOKUPS, units: 2 }, { spec: PLATFORM_LIVE_DATA, units: 2 }], lookupQuotaError);
 */
import type { Context } from "../context.ts";
import type { ApiError } from "../errors.ts";
import type { AllowanceOutcome, AllowanceRefusal, AllowanceScope, AllowanceState } from "./allowance_outcome.ts";
import type { ConsumeResult, CounterCheck } from "../ports/counters.ts";
import { DAY_SECONDS } from "../time/durations.ts";

/** A per-UTC-day allowance or action cap. */
export interface AllowanceSpec {
  /** Stable name, `[a-z0-9_]+`; part of the counter key, so renaming it starts a fresh count. */
  name: string;
  /** Units allowed per UTC day. */
  limit: number;
  scope: AllowanceScope;
}

/** Units to take from (or give back to) one allowance. */
export interface AllowanceCharge {
  spec: AllowanceSpec;
  /** Whole units; 0 only reads the allowance. */
  units: number;
}

/** An outcome that allowed the call. */
export type AllowedOutcome = Extract<AllowanceOutcome, { status: "allowed" }>;

const NAME = /^[a-z0-9_]+$/;

/**
 * Takes every charge, or none when any allowance would pass its limit, in ONE counters
 * call (so no other request can slip in between "is there room?" and "take it").
 * Account allowances are counted for `ownerId` (the owner's main account id,
 * `ctx.principal.mainAccountId`); platform ones once for the installation.
 * Never throws for the counters: an unreachable store answers `unverifiable`.
 */
export async function consumeAllowances(ctx: Context, ownerId: string, charges: AllowanceCharge[]): Promise<AllowanceOutcome> {
  const checkedAt = ctx.services.clock.now();
  const merged = mergeCharges(charges, ownerId);
  if (merged.length === 0) return { status: "allowed", checkedAt, allowances: [] };
  let result: ConsumeResult;
  try {
    result = await ctx.services.allowanceCounters.consume(
      merged.map((charge) => checkOf(charge, ownerId)),
      checkedAt,
    );
  } catch (cause) {
    // Spec rule 9: "credit and action counters that cannot be verified refuse the call".
    return { status: "unverifiable", checkedAt, cause };
  }
  const allowances = result.windows.map(
    (window, i): AllowanceState => ({
      name: merged[i].spec.name,
      scope: merged[i].spec.scope,
      limit: window.limit,
      units: merged[i].units,
      used: window.used,
      remaining: window.remaining,
      resetAt: window.resetAt,
    }),
  );
  if (result.allowed) return { status: "allowed", checkedAt, allowances };
  const full = allowances.filter((allowance) => allowance.used + allowance.units > allowance.limit);
  // All daily allowances reset at the same midnight, so when both are full the account's
  // own one is named: a `platform` answer means "not about the account's own quota"
  // (spec Errors, Special cases), which would be untrue then.
  const blocked = full.find((allowance) => allowance.scope === "account") ?? full[0] ?? allowances[0];
  return { status: "refused", checkedAt, allowances, blocked };
}

/**
 * Gives units back (a collection matching nobody "returns its slot", spec Limits 7;
 * research refunds unread profiles, Limits 8). Pass the consume's `checkedAt` as
 * `chargedAt` so a refund after midnight goes to the day that was charged, where it is
 * a no-op once that day has ended. Answers false, never throws, when the counters
 * cannot be reached: a lost refund must not fail a call whose work is done.
 */
export async function releaseAllowances(ctx: Context, ownerId: string, charges: AllowanceCharge[], options: { chargedAt?: number } = {}): Promise<boolean> {
  const checks = mergeCharges(charges, ownerId)
    .filter((charge) => charge.units > 0)
    .map((charge) => checkOf(charge, ownerId));
  if (checks.length === 0) return true;
  try {
    await ctx.services.allowanceCounters.release(checks, options.chargedAt ?? ctx.services.clock.now());
    return true;
  } catch {
    return false;
  }
}

/**
 * `consumeAllowances`, throwing `toError(refusal)` unless every charge was taken: the
 * one line a service function writes.
 */
export async function requireAllowances(
  ctx: Context,
  ownerId: string,
  charges: AllowanceCharge[],
  toError: (refusal: AllowanceRefusal) => ApiError,
): Promise<AllowedOutcome> {
  const outcome = await consumeAllowances(ctx, ownerId, charges);
  if (outcome.status !== "allowed") throw toError(outcome);
  return outcome;
}

/** Sums charges naming the same allowance, so two of them cannot together pass its limit unnoticed. */
function mergeCharges(charges: AllowanceCharge[], ownerId: string): AllowanceCharge[] {
  const byKey = new Map<string, AllowanceCharge>();
  for (const { spec, units } of charges) {
    if (!NAME.test(spec.name)) throw new Error(`Allowance name "${spec.name}" must match ${NAME}`);
    if (!Number.isSafeInteger(spec.limit) || spec.limit < 0) throw new Error(`Allowance "${spec.name}" has an invalid limit "${spec.limit}"`);
    if (!Number.isSafeInteger(units) || units < 0) throw new Error(`Allowance "${spec.name}" was charged an invalid number of units "${units}"`);
    if (spec.scope === "account" && !ownerId) throw new Error(`Allowance "${spec.name}" is per account but no owner id was given`);
    const key = counterKey(spec, ownerId);
    const seen = byKey.get(key);
    if (seen && seen.spec.limit !== spec.limit) throw new Error(`Allowance "${spec.name}" was given two limits "${seen.spec.limit}" and "${spec.limit}"`);
    byKey.set(key, { spec, units: (seen?.units ?? 0) + units });
  }
  return [...byKey.values()];
}

function checkOf(charge: AllowanceCharge, ownerId: string): CounterCheck {
  return { key: counterKey(charge.spec, ownerId), limit: charge.spec.limit, windowSeconds: DAY_SECONDS, cost: charge.units };
}

/** `al:` keeps allowances apart from request buckets (`rl:`); owner ids are digits, so never `platform`. */
function counterKey(spec: AllowanceSpec, ownerId: string): string {
  return spec.scope === "platform" ? `al:platform:${spec.name}` : `al:${ownerId}:${spec.name}`;
}
