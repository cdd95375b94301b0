/**
 * How many deliveries may be in flight at once (docs/webhooks.md, "Fairness"): a receiver
 * that answers slowly holds its posts for up to the 10 s bound, so without caps one slow
 * endpoint could hold every post slot of every process and delay every other tenant. The caps
 * are counted in the database (the live delivery leases), so they hold across processes.
 */

/** The caps the claim applies. */
export interface DeliveryLimits {
  /** Deliveries of one endpoint in flight at once. */
  perEndpoint: number;
  /** Deliveries of one owner's endpoints together in flight at once. */
  perOwner: number;
  /** An endpoint whose average attempt takes at least this long (ms) is slow. */
  slowAfterMs: number;
  /** Deliveries of a slow endpoint in flight at once. */
  perSlowEndpoint: number;
  /** An endpoint whose average attempt takes less than this (ms) is quick, once proven (`quickAfter`). */
  quickUnderMs: number;
  /** Successes in a row (since the endpoint's last failure) before it can be quick. */
  quickAfter: number;
  /** Deliveries of a quick endpoint in flight at once; its owner's cap is at least this. */
  perQuickEndpoint: number;
}

/**
 * The defaults. 10 per endpoint: a receiver that hangs holds 10 of a run's 100 slots; 20 per
 * owner is two endpoints' worth, so one owner's 10 endpoints cannot take a run's slots; 5 s is
 * half the attempt bound: an endpoint that averages that long is slowed to one delivery at a
 * time until it answers faster again. A quick endpoint (under 250 ms on average, after 20
 * successes in a row) gets 50, and its owner as many: at 10 in flight a slot's turn (the post
 * and the claim that frees it) capped one local receiver at 1,200 to 1,400 deliveries a second,
 * below what a burst of events brings (bench/webhooks_section.ts); at 50 it keeps up with
 * 2,000 a second. A quick receiver that hangs holds those 50 once, at most half of a run's
 * slots, until its first time-out ends its run of successes.
 */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = {
  perEndpoint: 10,
  perOwner: 20,
  slowAfterMs: 5_000,
  perSlowEndpoint: 1,
  quickUnderMs: 250,
  quickAfter: 20,
  perQuickEndpoint: 50,
};

/**
 * The weight of the latest attempt in an endpoint's average duration (an exponentially
 * weighted average starting at 0): an endpoint that times out (10 s) is slow after 4
 * attempts in a row, one that answers in 9 s after 4 too, and a slow endpoint that answers
 * quickly again is back under 5 s after at most 3 quick attempts. A single time-out among
 * quick answers does not make an endpoint slow.
 */
export const LATENCY_AVERAGE_WEIGHT = 0.2;

/** Where an endpoint's count of successes in a row stops (past any threshold, within an integer). */
export const SUCCESSES_IN_ROW_MAX = 1_000_000;
