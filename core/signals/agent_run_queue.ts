/**
 * How an agent's run is queued: by the dispatcher every 5 minutes for the agents due, and at
 * once when an agent is created or resumed, so a new agent starts finding leads within a
 * minute rather than at the next dispatch. Both use one key per agent and dispatch slot, so
 * the dispatcher never queues a second run beside the one a create just queued.
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJobOnce } from "../jobs/jobs_queries.ts";

/** How often due agents are dispatched: an agent runs at most this late. */
export const DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS = 300;

/** Queues one run of `agentId` for the dispatch slot of `nowMs`; false when that slot has one. */
export async function enqueueAgentRun(sql: Queryable, agentId: number, nowMs: number): Promise<boolean> {
  const slot = Math.floor(nowMs / 1000 / DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS);
  return enqueueJobOnce(sql, { kind: "run_signal_agent", payload: { agentId }, uniqueKey: `run_signal_agent:${agentId}:${slot}`, maxAttempts: 3 });
}
