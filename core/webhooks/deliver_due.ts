/**
 * Posting due deliveries (docs/webhooks.md): claim a batch under a lease, post each with
 * bounded concurrency, record each outcome, until nothing is due. The lease outlives one
 * attempt's 10 s bound, so two processes never post one attempt at once; a process that
 * dies mid-attempt leaves the lease to run out, and the same delivery (same `webhook-id`)
 * is posted again.
 */
import { mapBounded } from "../concurrency/map_bounded.ts";
import { claimDueDeliveries } from "./deliveries_queries.ts";
import { attemptDelivery, type DeliveryDeps } from "./deliver_attempt.ts";
import { DELIVERY_TIMEOUT_MS } from "./delivery_schedule.ts";

/** How long a claim holds a delivery, in seconds: an attempt's bound and a margin. */
export const DELIVERY_LEASE_SECONDS = (DELIVERY_TIMEOUT_MS + 50_000) / 1000;

/** How one run claims. */
export interface DeliverDueOptions {
  /** The lease holder (unique per process and run). */
  holder: string;
  /** Deliveries claimed per statement; default 100. */
  batchSize?: number;
  /** Posts in flight at once; default 50. */
  concurrency?: number;
  /** Batches per run before giving the job runner back; default 50. */
  maxBatches?: number;
}

/** Posts every due delivery (up to `maxBatches` batches); answers how many attempts were made. */
export async function deliverDue(deps: DeliveryDeps, options: DeliverDueOptions): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  let attempted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 50); batch++) {
    const lease = { holder: options.holder, leaseSeconds: DELIVERY_LEASE_SECONDS };
    const claimed = await claimDueDeliveries(deps.sql, lease, new Date(deps.clock.now()), batchSize);
    if (claimed.length === 0) break;
    await mapBounded(claimed, options.concurrency ?? 50, (delivery) => attemptDelivery(deps, delivery, options.holder));
    attempted += claimed.length;
  }
  return attempted;
}
