/**
 * The signal agent jobs (docs/areas.md "Signals"): `dispatch_signal_agents` runs every 5 minutes
 * and enqueues one `run_signal_agent` per due active agent, once per agent and slot;
 * each runs the agent once (core/signals/agent_runner.ts). Two processes dispatching the
 * same slot enqueue one job (`enqueueJobOnce`), and two jobs of one agent in different
 * slots run it once between them (the runner claims the agent before reading anything).
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { Model } from "../model/model.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { dueAgentIds } from "./agent_run_queries.ts";
import { runSignalAgent } from "./agent_runner.ts";
import { DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS, enqueueAgentRun } from "./agent_run_queue.ts";
import type { JobTasks } from "../jobs/job_task.ts";

/** Agents dispatched per run at most (the rest wait for the next run, longest overdue first). */
const DISPATCH_BATCH = 500;

/** The payload of `run_signal_agent`. */
export interface RunSignalAgentPayload {
  agentId: number;
}

/** What the signal agent jobs use (the job runner's deps; `model` is absent only in runners built without one). */
export interface SignalAgentJobDeps {
  sql: Sql;
  clock: Clock;
  network: SocialNetwork;
  model?: Model;
}

/** The `dispatch_signal_agents` job: one run job per due agent, once per agent and slot; answers how many it enqueued. */
export async function dispatchSignalAgents(deps: Pick<SignalAgentJobDeps, "sql" | "clock">): Promise<number> {
  const nowMs = deps.clock.now();
  let queued = 0;
  for (const agentId of await dueAgentIds(deps.sql, new Date(nowMs), DISPATCH_BATCH)) {
    if (await enqueueAgentRun(deps.sql, agentId, nowMs)) queued += 1;
  }
  return queued;
}

/** The signals area's job kinds (assembled in jobs/task_list.ts). */
export const signalsJobs = {
  // Every 5 minutes: an active agent runs hourly, at most 5 minutes late (agent_run_rhythm.ts).
  dispatch_signal_agents: { handler: dispatchSignalAgents, everySeconds: DISPATCH_SIGNAL_AGENTS_EVERY_SECONDS },
  run_signal_agent: {
    // Without a model it fails and retries, as `run_worker` does: the agent stays due, so a
    // runner with a model picks it up at the next dispatch.
    handler: async (deps: SignalAgentJobDeps, payload: RunSignalAgentPayload) => {
      if (!deps.model) throw new Error(`The job runner has no model; signal agent ${payload.agentId} cannot run`);
      await runSignalAgent({ sql: deps.sql, clock: deps.clock, network: deps.network, model: deps.model }, payload.agentId);
    },
  },
} satisfies JobTasks;
