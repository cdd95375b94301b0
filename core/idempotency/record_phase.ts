/**
 * Atomic phases for work that calls the outside world between database steps (the
 * design Stripe engineers described for idempotency keys): each phase commits its own
 * transaction together with the recovery point it reached, so a retry after a crash
 * resumes after the last committed phase instead of repeating an outside call.
 */
import type { Context } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { recordPhase } from "./idempotency_queries.ts";

/** Records that `point` committed (call with the phase's own transaction); a no-op without a key. */
export async function commitPhase(ctx: Context, tx: Queryable, point: string, data: Record<string, unknown> = {}): Promise<void> {
  const run = ctx.idempotency;
  if (!run) return;
  await recordPhase(tx, run.ownerId, run.key, point, data);
  run.recoveryPoint = point;
  Object.assign(run.phaseData, data);
}
