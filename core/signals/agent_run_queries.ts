/**
 * SQL of the agent runner (tables `signal_agents`, `agent_signals`, `signal_leads`,
 * migration 0024): which agents are due, the claim that lets one runner at a time run an
 * agent, its signals and cursors, and what it already knows about people.
 */
import type { Queryable } from "../db/sql.ts";
import type { AgentRecord } from "./agent_queries.ts";
import type { WatchedSignal } from "./signal_watch.ts";
import type { SignalCursor } from "./signal_watch_cursor.ts";

/** An agent as the runner reads it. */
export type AgentRunRow = Omit<AgentRecord, "created_at" | "updated_at">;

/** Active agents due at `now`, the longest overdue first. */
export async function dueAgentIds(sql: Queryable, now: Date, limit: number): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select id from signal_agents where status = 'active' and next_run_at <= ${now}
     order by next_run_at, id limit ${limit}`;
  return rows.map((row) => row.id);
}

/**
 * Claims a due active agent for one run by moving its `next_run_at` to the end of the
 * lease, and answers it (undefined: paused, gone, not due, or claimed by another runner).
 *
 * One statement, so no transaction is held while the run reads the network and the model:
 * two runners updating the same row queue on its row lock, and under READ COMMITTED the
 * second re-checks `next_run_at <= now` against the first's committed lease and claims
 * nothing. The lease is the claim's token: every later write of the run checks it still
 * holds (`lockClaimedAgent`), and a runner that died mid-run is replaced when it ends.
 */
export async function claimAgent(sql: Queryable, agentId: number, now: Date, leaseUntil: Date): Promise<AgentRunRow | undefined> {
  const [row] = await sql<AgentRunRow[]>`
    update signal_agents set next_run_at = ${leaseUntil}
     where id = ${agentId} and status = 'active' and next_run_at <= ${now}
     returning id, account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, last_run_at, last_run_error`;
  return row;
}

/**
 * Locks the agent in a run's write transaction and answers it while the run's claim holds
 * (still active, `next_run_at` still the lease); undefined when it was paused, deleted or
 * taken over, and the run must write nothing more. Read here, the destination list is the
 * one current at the commit (a list deleted mid-run stops deposits at once).
 */
export async function lockClaimedAgent(sql: Queryable, agentId: number, leaseUntil: Date): Promise<AgentRunRow | undefined> {
  const [row] = await sql<AgentRunRow[]>`
    select id, account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, last_run_at, last_run_error
      from signal_agents where id = ${agentId} for update`;
  if (row?.status !== "active" || row.next_run_at.getTime() !== leaseUntil.getTime()) return undefined;
  return row;
}

/** Ends a run: when it ran, what went wrong (null: nothing) and when it is next due; false when the claim was lost. */
export async function finishAgentRun(
  sql: Queryable,
  agentId: number,
  leaseUntil: Date,
  end: { at: Date; error: string | null; nextRunAt: Date },
): Promise<boolean> {
  const rows = await sql`
    update signal_agents set last_run_at = ${end.at}, last_run_error = ${end.error}, next_run_at = ${end.nextRunAt}
     where id = ${agentId} and next_run_at = ${leaseUntil} returning id`;
  return rows.length === 1;
}

/** The agent's signals in the order they were added. */
export async function signalsOfAgent(sql: Queryable, agentId: number): Promise<WatchedSignal[]> {
  return sql<WatchedSignal[]>`
    select id, type, target, target_id, label, cursor from agent_signals where agent_id = ${agentId} order by id`;
}

/** Stores where a signal's watch stopped (in the transaction that stores what it found). */
export async function saveSignalCursor(sql: Queryable, signalId: number, cursor: SignalCursor): Promise<void> {
  await sql`update agent_signals set cursor = ${sql.json(cursor as never)} where id = ${signalId}`;
}

/** The people among `xUserIds` the agent already has as leads. */
export async function leadPeopleAmong(sql: Queryable, agentId: number, xUserIds: readonly string[]): Promise<Set<string>> {
  if (xUserIds.length === 0) return new Set();
  const rows = await sql<{ x_user_id: string }[]>`
    select x_user_id from signal_leads where agent_id = ${agentId} and x_user_id = any(${xUserIds as string[]}::text[])`;
  return new Set(rows.map((row) => row.x_user_id));
}

/**
 * The agent's leads with feedback, newest feedback first, as the texts the scorer compares
 * new candidates with: the person's bio and the post that made them a lead.
 */
export async function feedbackTextsOf(sql: Queryable, agentId: number, perKind: number): Promise<{ fit: string[]; notFit: string[] }> {
  const rows = await sql<{ feedback: "fit" | "not_fit"; text: string }[]>`
    select feedback, text from (
      select l.feedback, concat_ws(E'\\n', nullif(c.bio, ''), l.provenance ->> 'post_text') as text,
             row_number() over (partition by l.feedback order by l.feedback_at desc nulls last, l.id desc) as n
        from signal_leads l join contacts c on c.account_id = l.account_id and c.x_user_id = l.x_user_id
       where l.agent_id = ${agentId} and l.feedback is not null) ranked
     where n <= ${perKind} order by feedback, n`;
  return {
    fit: rows.filter((row) => row.feedback === "fit").map((row) => row.text),
    notFit: rows.filter((row) => row.feedback === "not_fit").map((row) => row.text),
  };
}

/** The agent's destination list id as committed now (null: none; undefined: no such agent). */
export async function destinationOf(sql: Queryable, agentId: number): Promise<number | null | undefined> {
  const [row] = await sql<{ destination_list_id: number | null }[]>`select destination_list_id from signal_agents where id = ${agentId}`;
  return row?.destination_list_id;
}
