/**
 * The allowances several areas share, defined once: an allowance is its name, so two
 * areas spending "the same 300" must use the same spec (spec Limits 7, 8, 11; AI
 * credits, per-day caps). Numbers the spec leaves "not shown" are Threadline's choices,
 * marked as such.
 */
import type { AllowanceSpec } from "./allowances.ts";

/**
 * Live lookups: 300 per account per UTC day, shared by `x/*`, triage, reply-draft by
 * `post_id` and research (spec Limits 8).
 */
export const LIVE_LOOKUPS: AllowanceSpec = { name: "live_lookups", limit: 300, scope: "account" };

/** Dataset collections: 10 per account per UTC day; refine spends from the same 10 (spec Limits 7). */
export const DATASET_COLLECTIONS: AllowanceSpec = { name: "dataset_collections", limit: 10, scope: "account" };

/**
 * The platform fair-use ceiling on live-data requests (lead search, research, triage,
 * style-guide fallback, and live lookups' "platform-wide allowance"), one count for the
 * whole installation (spec Limits 11). Its value is not shown: Threadline's choice, high
 * enough that one busy account meets its own allowances first.
 */
export const PLATFORM_LIVE_DATA: AllowanceSpec = { name: "platform_live_data", limit: 50_000, scope: "platform" };

/** Style-guide live fallback: 3 attempts per account per UTC day, `scope: account` when over (spec Limits 11). */
export const STYLE_GUIDE_LIVE_ATTEMPTS: AllowanceSpec = { name: "style_guide_live_attempts", limit: 3, scope: "account" };

/** Actions with a per-plan daily cap. */
export type CappedAction = "triage" | "viral_score" | "research_profiles" | "outreach_drafts";

/**
 * Per-day caps by plan (spec AI credits: triage 20 trial, 60 pro, 150 advanced, 300
 * ultra; viral score 50, 300, 1,000, 2,000; research profiles: ours). `basic` is Threadline's own plan and gets
 * the smallest caps; `enterprise` (operators' automation) gets ten times ultra's.
 */
const CAPS: Record<CappedAction, Record<string, number>> = {
  triage: { basic: 20, trial: 20, pro: 60, advanced: 150, ultra: 300, enterprise: 3_000 },
  viral_score: { basic: 50, trial: 50, pro: 300, advanced: 1_000, ultra: 2_000, enterprise: 20_000 },
  // Profiles researched per day (spec Limits 7: "bounded by `research_profiles` day cap, value:
  // not shown"): Threadline's choice, one full run of 25 on the smallest plans.
  research_profiles: { basic: 25, trial: 25, pro: 100, advanced: 250, ultra: 500, enterprise: 5_000 },
  // Outreach-draft runs per day (spec: "429 ai_action_limited" on outreach drafts, value not
  // shown): Threadline's choice, a rerun per research dataset the day's research cap allows.
  outreach_drafts: { basic: 20, trial: 20, pro: 50, advanced: 100, ultra: 200, enterprise: 2_000 },
};

/** The daily cap of `action` on plan `planId`; an unknown plan gets the smallest cap, never none. */
export function dailyActionCap(action: CappedAction, planId: string): AllowanceSpec {
  return { name: `${action}_runs`, limit: CAPS[action][planId] ?? CAPS[action].basic, scope: "account" };
}

/**
 * Page reads: 20 per account per UTC day, shared by product scrapes and ICP expansion
 * from a URL (supplement 3.2).
 */
export const PAGE_READS: AllowanceSpec = { name: "page_reads", limit: 20, scope: "account" };
