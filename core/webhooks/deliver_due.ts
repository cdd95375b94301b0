/**
 * Posting due deliveries (docs/webhooks.md): keep up to `concurrency` posts in flight, claim
 * more under a lease as soon as slots free (never a batch that waits for its slowest post: a
 * receiver taking 9 s must not hold back the claim of quick ones), record each outcome.
 * The claim applies the caps in flight per endpoint and per owner and takes turns across
 * owners (core/webhooks/delivery_limits.ts). The lease outlives one attempt's 10 s bound, so
 * two processes never post one attempt at once; a process that dies mid-attempt leaves the
 * lease to run out, and the same delivery (same `webhook-id`) is posted again.
 */
import { claimDueDeliveries } from "./deliveries_queries.ts";
import { type DeliveryDeps, type DeliveryOutcome, sendDelivery, signingSecrets } from "./deliver_attempt.ts";
import { recordOutcomes } from "./record_outcomes.ts";
import { webhooksByIds } from "./webhooks_queries.ts";
import type { DeliveryRow, WebhookRow } from "./webhook_schema.ts";
import { DELIVERY_TIMEOUT_MS } from "./delivery_schedule.ts";
import { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from "./delivery_limits.ts";

/** How long a claim holds a delivery, in seconds: an attempt's bound and a margin. */
export const DELIVERY_LEASE_SECONDS = (DELIVERY_TIMEOUT_MS + 50_000) / 1000;

/**
 * How often a run looks for new work while its posts are in flight and nothing was
 * claimable: a delivery queued meanwhile (`queueNew`) or come due waits at most this long.
 */
export const DELIVERY_POLL_MS = 100;

/** How one run claims and posts. */
export interface DeliverDueOptions {
  /** The lease holder (unique per process and run). */
  holder: string;
  /** Posts in flight at once in this run; default 50. */
  concurrency?: number;
  /** Attempts per run before giving the job runner back; default 5,000. */
  maxAttempts?: number;
  /** Stop claiming this long (ms) after the run started, then let the posts in flight end; default no bound. */
  claimForMs?: number;
  /** Stop claiming once it aborts, then let the posts in flight end. */
  signal?: AbortSignal;
  /** The caps in flight; default `DEFAULT_DELIVERY_LIMITS` (tests lower the slow threshold). */
  limits?: Partial<DeliveryLimits>;
  /**
   * Queues new deliveries (the job's fan-out), run beside the claims at most once per poll, so
   * events committed while this run's posts are in flight are posted by this run.
   */
  queueNew?: () => Promise<unknown>;
}

/**
 * Posts every due delivery, claiming as slots free, until nothing is claimable and nothing
 * is in flight (or a bound of the options is reached); answers how many attempts were made.
 * Each claim loads its endpoints once and opens their secrets once. Outcomes are recorded in
 * groups (record_outcomes.ts): while one group is being written the next gathers, and a slot
 * frees when its outcome is written (until then its lease counts against the caps).
 * An attempt or a claim that throws (the database went away) stops the claims and is thrown
 * once the posts in flight ended.
 */
export async function deliverDue(deps: DeliveryDeps, options: DeliverDueOptions): Promise<number> {
  const concurrency = options.concurrency ?? 50;
  const maxAttempts = options.maxAttempts ?? 5_000;
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...options.limits };
  const lease = { holder: options.holder, leaseSeconds: DELIVERY_LEASE_SECONDS };
  const claimUntil = performance.now() + (options.claimForMs ?? Number.POSITIVE_INFINITY);
  let inFlight = 0;
  let failure: { error: unknown } | undefined;
  let attempted = 0;
  let settled: () => void = () => {};
  let anySettled = new Promise<void>((resolve) => {
    settled = resolve;
  });
  const free = (count: number) => {
    inFlight -= count;
    settled();
  };
  const outcomes: DeliveryOutcome[] = [];
  let recording: Promise<void> | undefined;
  const record = async () => {
    while (outcomes.length > 0) {
      const group = outcomes.splice(0);
      try {
        await recordOutcomes(deps.sql, group, options.holder);
      } catch (error) {
        failure ??= { error };
      }
      free(group.length);
    }
    recording = undefined;
  };
  const post = (delivery: DeliveryRow, webhook: WebhookRow | undefined, secrets: readonly string[]) => {
    inFlight++;
    // An endpoint deleted since the claim: its deliveries went with it.
    if (!webhook) return void queueMicrotask(() => free(1));
    sendDelivery(deps, delivery, webhook, secrets).then(
      (outcome) => {
        outcomes.push(outcome);
        recording ??= record();
      },
      (error) => {
        failure ??= { error };
        free(1);
      },
    );
  };
  // The fan-out runs beside the claims, at most once per poll: a post ending every millisecond
  // need not run it each time, nor wait for it to claim. A claim after it ended takes what it queued.
  let queuedAt = Number.NEGATIVE_INFINITY;
  let queueing = false;
  let queuedSinceClaim = false;
  const queueNew = (queue: () => Promise<unknown>) => {
    queuedAt = performance.now();
    queueing = true;
    queue().then(
      () => {
        queueing = false;
        queuedSinceClaim = true;
        settled();
      },
      (error) => {
        queueing = false;
        failure ??= { error };
        settled();
      },
    );
  };
  for (;;) {
    const claiming = failure === undefined && !options.signal?.aborted && attempted < maxAttempts && performance.now() < claimUntil;
    const slots = claiming ? Math.min(concurrency - inFlight, maxAttempts - attempted) : 0;
    let claimed = 0;
    if (slots > 0) {
      if (options.queueNew && !queueing && performance.now() - queuedAt >= DELIVERY_POLL_MS) queueNew(options.queueNew);
      queuedSinceClaim = false;
      try {
        const deliveries = await claimDueDeliveries(deps.sql, lease, new Date(deps.clock.now()), slots, limits);
        if (deliveries.length > 0) {
          const webhooks = await webhooksByIds(deps.sql, [...new Set(deliveries.map((delivery) => delivery.webhook_id))]);
          const at = new Date(deps.clock.now());
          const byId = new Map(webhooks.map((webhook) => [webhook.id, { webhook, secrets: signingSecrets(webhook, at, deps.secretBox) }]));
          for (const delivery of deliveries) {
            const endpoint = byId.get(delivery.webhook_id);
            post(delivery, endpoint?.webhook, endpoint?.secrets ?? []);
          }
        }
        claimed = deliveries.length;
        attempted += claimed;
      } catch (error) {
        // Thrown once the posts in flight ended (they record their own outcomes).
        failure ??= { error };
      }
    }
    // Done when nothing is in flight, nothing was claimed, and no fan-out is running or ran since the claim.
    if (inFlight === 0 && claimed === 0 && !queueing && !(queuedSinceClaim && slots > 0 && failure === undefined)) break;
    // Wait for a slot to free (its slot, or the next event of its object, may be claimable), or,
    // with slots free, for the poll: new deliveries may have been queued or come due.
    const waits: Promise<unknown>[] = [anySettled];
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (slots > claimed) waits.push(new Promise((resolve) => (timer = setTimeout(resolve, DELIVERY_POLL_MS))));
    await Promise.race(waits);
    clearTimeout(timer);
    anySettled = new Promise<void>((resolve) => {
      settled = resolve;
    });
  }
  if (failure) throw failure.error;
  return attempted;
}
