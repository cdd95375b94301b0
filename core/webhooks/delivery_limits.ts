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
}

/**
 * The defaults. 10 per endpoint: a receiver that hangs holds 10 of a run's 50 slots, while one
 * quick endpoint keeps most of its throughput (bench/webhooks_section.ts: one endpoint took
 * 230-340 deliveries a second at 10, 240 at 5, 430 uncapped, on 2 busy shared CPUs); 20 per
 * owner is two endpoints' worth, so one owner's 10 endpoints cannot take a run's slots; 5 s is
 * half the attempt bound: an endpoint that averages that long is slowed to one delivery at a
 * time until it answers faster again.
 */
export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { perEndpoint: 10, perOwner: 20, slowAfterMs: 5_000, perSlowEndpoint: 1 };

/**
 * The weight of the latest attempt in an endpoint's average duration (an exponentially
 * weighted average starting at 0): an endpoint that times out (10 s) is slow after 4
 * attempts in a row, one that answers in 9 s after 4 too, and a slow endpoint that answers
 * quickly again is back under 5 s after at most 3 quick attempts. A single time-out among
 * quick answers does not make an endpoint slow.
 */
export const LATENCY_AVERAGE_WEIGHT = 0.2;
