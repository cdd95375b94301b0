/**
 * Signal agents and their signals written straight into the tables (migration 0024), for
 * suites that exercise the runner without the REST endpoints. Rows follow the conventions
 * the endpoints use: keyword_watch target = the query, target_id null, label = the query,
 * dedupe_key = lower(query); profile and follower watches target = handle without `@`,
 * target_id = the X user id, label = `@handle`; list_watch target = target_id = the list id,
 * label = the list's name.
 */
import type { Sql } from "../../core/db/sql.ts";
import { insertList } from "../../core/contact_lists/contact_lists_queries.ts";
import type { PrecisionMode } from "../../core/signals/signal_schema.ts";

/** An agent to write. */
export interface AgentRowInput {
  accountId: string;
  name: string;
  icp: string;
  precision?: PrecisionMode;
  status?: "active" | "paused";
  /** Default: a new list `Leads: <name>`; null: no destination. */
  destinationListId?: number | null;
  /** Default: now (due at once). */
  nextRunAt?: Date;
}

/** A signal to write. */
export type SignalRowInput =
  | { type: "keyword_watch"; query: string }
  | { type: "profile_watch" | "follower_watch"; handle: string; userId: string }
  | { type: "list_watch"; listId: string; listName: string };

/** Writes an agent (and its destination list unless given) and answers its id and list id. */
export async function insertAgentRow(sql: Sql, input: AgentRowInput): Promise<{ id: number; listId: number | null }> {
  const now = new Date();
  const listId = input.destinationListId === undefined ? (await insertList(sql, input.accountId, `Leads: ${input.name}`, now)).id : input.destinationListId;
  const [row] = await sql<{ id: number }[]>`
    insert into signal_agents (account_id, name, icp_description, precision_mode, status, destination_list_id, next_run_at, created_at, updated_at)
    values (${input.accountId}, ${input.name}, ${input.icp}, ${input.precision ?? "high"}, ${input.status ?? "active"}, ${listId},
            ${input.nextRunAt ?? now}, ${now}, ${now})
    returning id`;
  return { id: row.id, listId };
}

/** Writes one signal of an agent and answers its id. */
export async function insertSignalRow(sql: Sql, agentId: number, input: SignalRowInput): Promise<number> {
  const fields =
    input.type === "keyword_watch"
      ? { target: input.query, target_id: null, label: input.query, dedupe_key: input.query.toLowerCase() }
      : input.type === "list_watch"
        ? { target: input.listId, target_id: input.listId, label: input.listName, dedupe_key: input.listId }
        : { target: input.handle, target_id: input.userId, label: `@${input.handle}`, dedupe_key: input.userId };
  const [row] = await sql<{ id: number }[]>`
    insert into agent_signals (agent_id, type, target, target_id, label, dedupe_key, created_at)
    values (${agentId}, ${input.type}, ${fields.target}, ${fields.target_id}, ${fields.label}, ${fields.dedupe_key}, ${new Date()})
    returning id`;
  return row.id;
}
