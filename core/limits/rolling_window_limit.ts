/**
 * A per-owner limit over a sliding window (N calls in M minutes), refused with `429
 * rate_limited` naming the `bucket`, `limit`, `reset_at` and `Retry-After`, like a request
 * bucket. For endpoints whose cost is an outbound call another party receives (a page read,
 * a test ping to a receiver), so a key cannot aim a stream of requests at anyone.
 */
import type { KeyContext } from "../context.ts";
import { retryableError } from "../errors.ts";
import { consumeRolling } from "./rolling_allowances.ts";

/** A limit: `limit` calls per owner in `windowSeconds`, counted under `name`. */
export interface RollingWindowLimit {
  name: string;
  limit: number;
  windowSeconds: number;
  /** What is counted, for the message: "ICP expansions from a URL". */
  what: string;
}

/** Takes one call of the owner's window, or throws `429 rate_limited` with the wait. */
export async function takeRollingWindow(ctx: KeyContext, spec: RollingWindowLimit): Promise<void> {
  const { name, limit, windowSeconds } = spec;
  const outcome = await consumeRolling(ctx.services.sql, {
    ownerId: ctx.principal.mainAccountId,
    name,
    limit,
    windowSeconds,
    units: 1,
    at: new Date(ctx.services.clock.now()),
  });
  if (outcome.status !== "refused") return;
  const { blocked, checkedAt } = outcome;
  ctx.services.telemetry?.rateLimited(name);
  const retryAfter = Math.max(1, Math.ceil(blocked.resetAt - checkedAt / 1000));
  const window = windowSeconds % 60 === 0 ? `${windowSeconds / 60} minutes` : `${windowSeconds} s`;
  throw retryableError("rate_limited", `At most ${limit} ${spec.what} in ${window}; retry in ${retryAfter} s`, retryAfter, {
    bucket: name,
    limit,
    reset_at: blocked.resetAt,
  });
}
