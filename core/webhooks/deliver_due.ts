/**
 * Posting due deliveries (docs/webhooks.md): keep up to `concurrency` posts in flight, claim
 * more under a lease as soon as slots free (never a batch that waits for its slowest post: a
 * receiver taking 9 s must not hold back the claim of quick ones), record each outcome.
 * The claim applies the caps in flight per endpoint and per owner and takes turns across
 * owners (core/webhooks/delivery_limits.ts). The lease outlives one attempt's 10 s bound, so
 * two processes never post one attempt at once; a process that dies mid-attempt leaves the
 * lease to run out, and the same delivery (same `webhook-id`) is posted again.
 */
import { recordAndClaim } from "./deliveries_queries.ts";
import { type DeliveryDeps, type DeliveryOutcome, sendDelivery, signingSecrets } from "./deliver_attempt.ts";
import { recordOutcome, recordOutcomes } from "./record_outcomes.ts";
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
  /** Posts in flight at once in this run; default 100. */
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
 * Outcomes are recorded in groups: each failure in its own transaction, the successes
 * gathered since the last claim in the next claim's transaction (`recordAndClaim`: one round
 * trip records them, frees their slots and claims their replacements, with their endpoints).
 * A slot frees when its outcome is recorded (until then its lease counts against the caps).
 * An attempt or a claim that throws (the database went away) stops the claims and is thrown
 * once the posts in flight ended; successes it did not record are posted again once their
 * leases run out (the same `webhook-id`).
 */
export async function deliverDue(deps: DeliveryDeps, options: DeliverDueOptions): Promise<number> {
  const concurrency = options.concurrency ?? 100;
  const maxAttempts = options.maxAttempts ?? 5_000;
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...options.limits };
  const lease = { holder: options.holder, leaseSeconds: DELIVERY_LEASE_SECONDS };
  const claimUntil = performance.now() + (options.claimForMs ?? Number.POSITIVE_INFINITY);
  // Posted or posting, not yet recorded.
  let inFlight = 0;
  let failure: { error: unknown } | undefined;
  let attempted = 0;
  let settled: () => void = () => {};
  let anySettled = new Promise<void>((resolve) => {
    settled = resolve;
  });
  const outcomes: DeliveryOutcome[] = [];
  const post = (delivery: DeliveryRow, webhook: WebhookRow, secrets: readonly string[]) => {
    inFlight++;
    sendDelivery(deps, delivery, webhook, secrets).then(
      (outcome) => {
        outcomes.push(outcome);
        settled();
      },
      (error) => {
        failure ??= { error };
        inFlight--;
        settled();
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
    const group = outcomes.splice(0);
    const successes = group.filter((outcome) => outcome.error === null);
    try {
      for (const outcome of group) if (outcome.error !== null) await recordOutcome(deps.sql, outcome, options.holder);
    } catch (error) {
      failure ??= { error };
    }
    inFlight -= group.length - successes.length;
    const claiming = failure === undefined && !options.signal?.aborted && attempted < maxAttempts && performance.now() < claimUntil;
    const slots = claiming ? Math.min(concurrency - inFlight + successes.length, maxAttempts - attempted) : 0;
    let claimed = 0;
    try {
      if (slots > 0) {
        if (options.queueNew && !queueing && performance.now() - queuedAt >= DELIVERY_POLL_MS) queueNew(options.queueNew);
        queuedSinceClaim = false;
        const turn = await recordAndClaim(deps.sql, lease, successes, new Date(deps.clock.now()), slots, limits);
        inFlight -= successes.length;
        const at = new Date(deps.clock.now());
        const endpoints = new Map(turn.webhooks.map((webhook) => [webhook.id, { webhook, secrets: signingSecrets(webhook, at, deps.secretBox) }]));
        for (const delivery of turn.claimed) {
          const endpoint = endpoints.get(delivery.webhook_id);
          // An endpoint deleted since the claim: its deliveries went with it.
          if (endpoint) post(delivery, endpoint.webhook, endpoint.secrets);
        }
        claimed = turn.claimed.length;
        attempted += claimed;
      } else if (successes.length > 0) {
        await recordOutcomes(deps.sql, successes, options.holder);
        inFlight -= successes.length;
      }
    } catch (error) {
      // Thrown once the posts in flight ended (they record their own outcomes).
      failure ??= { error };
      inFlight -= successes.length;
    }
    // Done when nothing is in flight, nothing was claimed, and no fan-out is running or ran since the claim.
    if (inFlight === 0 && claimed === 0 && !queueing && !(queuedSinceClaim && slots > 0 && failure === undefined)) break;
    // Wait for a post to end (its slot, or the next event of its object, may be claimable), or,
    // with slots free, for the poll: new deliveries may have been queued or come due.
    if (outcomes.length > 0) continue;
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
