/** SQL of signal agents and their signals (tables `signal_agents`, `agent_signals`, migration 0024). */
import type { Queryable } from "../db/sql.ts";
import type { PrecisionMode, SignalType } from "./signal_schema.ts";

/** A stored agent: the columns of `signal_agents`. */
export interface AgentRecord {
  id: number;
  account_id: string;
  name: string;
  icp_description: string;
  precision_mode: PrecisionMode;
  status: "active" | "paused";
  destination_list_id: number | null;
  next_run_at: Date;
  last_run_at: Date | null;
  last_run_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A stored agent with its lead counts. */
export interface AgentRow extends AgentRecord {
  lead_count: number;
  deposited_count: number;
}

/** A stored signal of an agent. */
export interface AgentSignalRow {
  id: number;
  agent_id: number;
  type: SignalType;
  target: string;
  target_id: string | null;
  label: string;
  dedupe_key: string;
  created_at: Date;
}

/** A signal about to be stored. */
export interface NewSignal {
  type: SignalType;
  target: string;
  target_id: string | null;
  label: string;
  dedupe_key: string;
}

const AGENT_COLUMNS = (sql: Queryable) => sql`
  a.id::int as id, a.account_id, a.name, a.icp_description, a.precision_mode, a.status,
  a.destination_list_id::int as destination_list_id, a.next_run_at, a.last_run_at, a.last_run_error, a.created_at, a.updated_at,
  (select count(*) from signal_leads l where l.agent_id = a.id)::int as lead_count,
  (select count(*) from signal_leads l where l.agent_id = a.id and l.deposited)::int as deposited_count`;

/** The account's agents, newest first. */
export async function agentsOf(sql: Queryable, accountId: string, page: { take: number; skip: number }): Promise<AgentRow[]> {
  return sql<AgentRow[]>`
    select ${AGENT_COLUMNS(sql)} from signal_agents a where a.account_id = ${accountId} order by a.created_at desc, a.id desc
     limit ${page.take} offset ${page.skip}`;
}

/** One agent by id, or undefined. */
export async function agentById(sql: Queryable, id: number): Promise<AgentRow | undefined> {
  const [row] = await sql<AgentRow[]>`select ${AGENT_COLUMNS(sql)} from signal_agents a where a.id = ${id}`;
  return row;
}

/** Locks an agent for a signal write (the cap and the duplicate check hold until commit); false when it is gone. */
export async function lockAgent(sql: Queryable, id: number): Promise<boolean> {
  const rows = await sql`select id from signal_agents where id = ${id} for update`;
  return rows.length > 0;
}

/**
 * Locks the user's row and counts the agents of every account the user owns: the plan cap
 * (`Plan.signalAgents`) is per user, and two concurrent creates serialise on the lock, so
 * they cannot both pass the count.
 */
export async function lockAndCountUserAgents(sql: Queryable, userId: number): Promise<number> {
  await sql`select id from users where id = ${userId} for update`;
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from signal_agents a join accounts c on c.id = a.account_id where c.user_id = ${userId}`;
  return row.count;
}

/** Counts the agents of every account the user owns (a cheap check before any spending; the locked count decides). */
export async function countUserAgents(sql: Queryable, userId: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from signal_agents a join accounts c on c.id = a.account_id where c.user_id = ${userId}`;
  return row.count;
}

/** Stores a new agent (active, due now). */
export async function insertAgent(
  sql: Queryable,
  agent: { accountId: string; name: string; icpDescription: string; precisionMode: PrecisionMode; destinationListId: number },
  now: Date,
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into signal_agents (account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, created_at, updated_at)
    values (${agent.accountId}, ${agent.name}, ${agent.icpDescription}, ${agent.precisionMode}, 'active', ${agent.destinationListId}, ${now}, ${now}, ${now})
    returning id::int as id`;
  return row.id;
}

/** The fields a PATCH may change; `next_run_at` is set when an agent is resumed. */
export interface AgentChanges {
  name?: string;
  icp_description?: string;
  precision_mode?: PrecisionMode;
  destination_list_id?: number;
  status?: "active" | "paused";
  next_run_at?: Date;
}

/** Applies `changes` to an agent; false when it is gone. */
export async function updateAgent(sql: Queryable, id: number, changes: AgentChanges, now: Date): Promise<boolean> {
  const rows = await sql`update signal_agents set ${sql({ ...changes, updated_at: now } as never)} where id = ${id} returning id`;
  return rows.length > 0;
}

/** Deletes an agent (its signals go with it; its leads stay with `agent_id` null); false when it was already gone. */
export async function deleteAgentRow(sql: Queryable, id: number): Promise<boolean> {
  const rows = await sql`delete from signal_agents where id = ${id} returning id`;
  return rows.length > 0;
}

/** The signals of `agentIds`, oldest first. */
export async function signalsOf(sql: Queryable, agentIds: readonly number[]): Promise<AgentSignalRow[]> {
  if (agentIds.length === 0) return [];
  return sql<AgentSignalRow[]>`
    select id::int as id, agent_id::int as agent_id, type, target, target_id, label, dedupe_key, created_at
      from agent_signals where agent_id = any(${agentIds as number[]}::bigint[]) order by id`;
}

/** Stores signals of an agent; answers the stored rows (a duplicate `dedupe_key` is skipped). */
export async function insertSignals(sql: Queryable, agentId: number, signals: readonly NewSignal[], now: Date): Promise<AgentSignalRow[]> {
  if (signals.length === 0) return [];
  const rows = signals.map((signal) => ({ agent_id: agentId, ...signal, created_at: now }));
  return sql<AgentSignalRow[]>`
    insert into agent_signals ${sql(rows as never)}
    on conflict (agent_id, type, dedupe_key) do nothing
    returning id::int as id, agent_id::int as agent_id, type, target, target_id, label, dedupe_key, created_at`;
}

/** Deletes one signal of an agent; false when it is not there. */
export async function deleteSignalRow(sql: Queryable, agentId: number, signalId: number): Promise<boolean> {
  const rows = await sql`delete from agent_signals where id = ${signalId} and agent_id = ${agentId} returning id`;
  return rows.length > 0;
}

/** How many signals an agent watches. */
export async function countSignals(sql: Queryable, agentId: number): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from agent_signals where agent_id = ${agentId}`;
  return row.count;
}
