/**
 * Plans and their request buckets (spec: Limits 1-2). The spec leaves per-plan numbers
 * "not shown"; these are Threadline's choices, documented in docs/choices.md and the OpenAPI
 * document. Feed-fetch numbers follow the supplement (section 3.1). `basic` is the
 * plan of 30 reads and 10 writes per minute the spec's sample message names.
 */
import type { CreditAllowance } from "../time/credit_period.ts";
export const BUCKET_NAMES = ["reads", "writes", "enrichment", "feed"] as const;

/** One of the four request buckets. */
export type BucketName = (typeof BUCKET_NAMES)[number];

/** Units allowed per clock minute and per UTC day. */
export interface BucketLimits {
  minute: number;
  day: number;
}

/** What a plan allows. */
export interface Plan {
  id: string;
  label: string;
  buckets: Record<BucketName, BucketLimits>;
  credits: CreditAllowance;
  /** Posts (and articles) scheduled or published per billing month (spec: 403 post_quota_exceeded). */
  posts: number;
  /** Followers (and following) the audience sync walks at most per list (docs/areas.md "Audience": the walk backfills up to a cap per plan). */
  audienceBackfillCap: number;
  /** Signal agents the user keeps at once (spec: `403 cap_reached` "plan limit on signal agent create"; the numbers are Threadline's). */
  signalAgents: number;
  /** DM limits per account (spec: DM limits); null: DMs are not in the plan (`403 dm_not_in_plan`). */
  dms: DmAllowance | null;
}

/**
 * A plan's DM limits, per account (spec: DM limits; the numbers are Threadline's, the spec
 * shows none): messages per UTC calendar month, messages in any rolling 24 hours, people one
 * post's auto DM may message, scheduled posts per month that may carry an auto DM, and
 * whether overflow may be scheduled over coming days (`spread`).
 */
export interface DmAllowance {
  monthlyMax: number;
  dailyBulkMax: number;
  perPostMax: number;
  postsWithAutoDm: number;
  schedulingEnabled: boolean;
}

function dms(monthlyMax: number, dailyBulkMax: number, perPostMax: number, postsWithAutoDm: number, schedulingEnabled: boolean): DmAllowance {
  return { monthlyMax, dailyBulkMax, perPostMax, postsWithAutoDm, schedulingEnabled };
}

/** DM limits by plan id (monthly, rolling day, per post, posts with auto DM, scheduling); a plan not listed (trial) has no DMs. */
const DM_ALLOWANCES: Record<string, DmAllowance> = {
  basic: dms(300, 50, 25, 5, false),
  pro: dms(2_000, 200, 100, 30, true),
  advanced: dms(6_000, 500, 100, 100, true),
  ultra: dms(20_000, 1_000, 100, 300, true),
  enterprise: dms(1_000_000, 100_000, 100, 10_000, true),
};

function plan(
  id: string,
  label: string,
  credits: CreditAllowance,
  posts: number,
  audienceBackfillCap: number,
  signalAgents: number,
  buckets: Record<BucketName, [number, number]>,
): Plan {
  const entries = Object.entries(buckets).map(([name, [minute, day]]) => [name, { minute, day }]);
  return {
    id,
    label,
    credits,
    posts,
    audienceBackfillCap,
    signalAgents,
    dms: DM_ALLOWANCES[id] ?? null,
    buckets: Object.fromEntries(entries) as Record<BucketName, BucketLimits>,
  };
}

/** Every plan by id. */
export const PLANS: Record<string, Plan> = {
  basic: plan("basic", "Basic", { period: "monthly", credits: 200 }, 100, 2_000, 1, {
    reads: [30, 3_000],
    writes: [10, 500],
    enrichment: [5, 50],
    feed: [2, 20],
  }),
  trial: plan("trial", "Trial", { period: "daily", credits: 50 }, 30, 2_000, 1, {
    reads: [60, 5_000],
    writes: [20, 1_000],
    enrichment: [10, 100],
    feed: [2, 20],
  }),
  pro: plan("pro", "Pro", { period: "monthly", credits: 1_000 }, 1_000, 20_000, 3, {
    reads: [300, 20_000],
    writes: [100, 5_000],
    enrichment: [30, 500],
    feed: [5, 60],
  }),
  advanced: plan("advanced", "Advanced", { period: "monthly", credits: 3_000 }, 3_000, 50_000, 10, {
    reads: [1_000, 50_000],
    writes: [300, 10_000],
    enrichment: [60, 1_500],
    feed: [10, 120],
  }),
  ultra: plan("ultra", "Ultra", { period: "monthly", credits: 10_000 }, 10_000, 100_000, 25, {
    reads: [3_000, 200_000],
    writes: [1_000, 20_000],
    enrichment: [120, 5_000],
    feed: [15, 300],
  }),
  // For operators' own automation (and the benchmark): buckets still counted, rarely reached.
  enterprise: plan("enterprise", "Enterprise", { period: "monthly", credits: 100_000 }, 1_000_000, 1_000_000, 1_000, {
    reads: [1_000_000, 100_000_000],
    writes: [100_000, 10_000_000],
    enrichment: [100_000, 10_000_000],
    feed: [1_000, 100_000],
  }),
};

/** The plan with `id`; an unknown id falls back to the smallest plan rather than failing open. */
export function planById(id: string): Plan {
  return PLANS[id] ?? PLANS.basic;
}
