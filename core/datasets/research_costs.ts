/**
 * What a research run may spend, all decided in the request path (a background job has no
 * request or allowance counters, only the database), in this order (spec Limits 7, 8, 11;
 * AI credits; supplement 3.3: "Research: flat 1 per profile actually researched"):
 *
 * 1. Credits: fewer than 1 per profile asked for -> `429 ai_credits_exhausted`, nothing taken.
 * 2. The plan's `research_profiles` day cap and the platform ceiling, 1 unit per profile,
 *    taken together, all or nothing: the cap -> `429 ai_action_limited` scope `account`,
 *    the ceiling -> scope `platform`.
 * 3. The daily live allowance, profile by profile (1 for a known X id, 2 for a handle).
 *    When it runs out mid-run there is no `429`: that profile and every later one are
 *    skipped `allowance_exhausted`, and their cap and ceiling units are given back (never
 *    read). Profiles read but not researched (`not_found`, ...) keep their units: the
 *    network was read for them.
 */
import type { AccountContext } from "../context.ts";
import { assertCredits, creditOwner } from "../credits/credits.ts";
import { dailyActionCap, LIVE_LOOKUPS, PLATFORM_LIVE_DATA } from "../limits/allowance_catalog.ts";
import { actionCapError } from "../limits/allowance_errors.ts";
import { type AllowanceCharge, consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { liveUnitsOf, type ResearchTarget, type SkippedProfile, skippedOf } from "./research_target.ts";

/** Credits per profile researched (supplement 3.3: flat 1; the rest refunded). */
export const CREDITS_PER_PROFILE = 1;

/** The profiles a run may read, those skipped before reading, and how to give the allowances back. */
export interface ResearchGrant {
  granted: ResearchTarget[];
  skipped: SkippedProfile[];
  /** Gives back every unit taken for the granted profiles (the call failed before it was done). */
  releaseGranted(): Promise<void>;
}

/** Takes the allowances of `targets` as the module comment says. */
export async function takeResearchAllowances(ctx: AccountContext, targets: readonly ResearchTarget[]): Promise<ResearchGrant> {
  const owner = ctx.principal.mainAccountId;
  await assertCredits(ctx, creditOwner(ctx.principal), targets.length * CREDITS_PER_PROFILE);
  const perProfile = (count: number): AllowanceCharge[] => [
    { spec: dailyActionCap("research_profiles", ctx.principal.plan.id), units: count },
    { spec: PLATFORM_LIVE_DATA, units: count },
  ];
  const capped = await consumeAllowances(ctx, owner, perProfile(targets.length));
  if (capped.status !== "allowed") throw actionCapError(capped);

  const granted: ResearchTarget[] = [];
  let liveUnits = 0;
  for (const target of targets) {
    const live = await consumeAllowances(ctx, owner, [{ spec: LIVE_LOOKUPS, units: liveUnitsOf(target) }]);
    // Refused or unverifiable alike: this and the later profiles are not read (Limits 8:
    // "on exhaustion mid-run it does not answer 429"); nothing of theirs is charged.
    if (live.status !== "allowed") break;
    granted.push(target);
    liveUnits += liveUnitsOf(target);
  }
  const skipped = targets.slice(granted.length).map((target) => skippedOf(target, "allowance_exhausted"));
  if (skipped.length > 0) await releaseAllowances(ctx, owner, perProfile(skipped.length), { chargedAt: capped.checkedAt });
  return {
    granted,
    skipped,
    async releaseGranted() {
      await releaseAllowances(ctx, owner, [...perProfile(granted.length), { spec: LIVE_LOOKUPS, units: liveUnits }], { chargedAt: capped.checkedAt });
    },
  };
}
