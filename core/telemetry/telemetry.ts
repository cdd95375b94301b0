/**
 * What the core tells operations about (docs/operations.md: Prometheus metrics). A port like the
 * others: adapters/observability/ counts it; a runtime without one records nothing.
 * Counted where the fact happens, because the HTTP layer sees only a status: a 429 may be
 * a request bucket, the failed-attempt limiter or a daily allowance.
 */
export interface Telemetry {
  /** A request refused by a full request bucket (`429 rate_limited`). */
  rateLimited(bucket: string): void;
  /** Credits kept for a call of `procedure` (refunds are not subtracted: a counter only grows). */
  creditsCharged(amount: number, procedure: string): void;
}
