/** SQL of the demo world's signal agent (core/demo/demo_signals.ts): finding it again and writing it. */
import type { Queryable } from "../db/sql.ts";

/** The account's agent named `name`, or undefined. */
export async function demoAgentNamed(sql: Queryable, accountId: string, name: string): Promise<number | undefined> {
  const [row] = await sql<{ id: number }[]>`select id from signal_agents where account_id = ${accountId} and name = ${name} order by id limit 1`;
  return row?.id;
}

/** Writes an active agent due now and answers its id. */
export async function insertDemoAgent(
  sql: Queryable,
  agent: { accountId: string; name: string; icp: string; precision: "high" | "discovery"; listId: number; now: Date },
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into signal_agents (account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, created_at, updated_at)
    values (${agent.accountId}, ${agent.name}, ${agent.icp}, ${agent.precision}, 'active', ${agent.listId}, ${agent.now}, ${agent.now}, ${agent.now})
    returning id`;
  return row.id;
}

/** Writes one signal of an agent, following the signal row conventions (core/signals/signal_schema.ts `agentSignal`). */
export async function insertDemoSignal(
  sql: Queryable,
  signal: { agentId: number; type: "keyword_watch" | "profile_watch"; target: string; targetId: string | null; label: string; dedupeKey: string; now: Date },
): Promise<void> {
  await sql`
    insert into agent_signals (agent_id, type, target, target_id, label, dedupe_key, created_at)
    values (${signal.agentId}, ${signal.type}, ${signal.target}, ${signal.targetId}, ${signal.label}, ${signal.dedupeKey}, ${signal.now})`;
}
