/**
 * SQL of storing leads and depositing them into an agent's destination list (tables
 * `signal_leads` and `contact_list_members`, migrations 0023 and 0024). Both inserts skip
 * what exists (one lead per agent and person; one member per list and person), so a lead
 * is stored and deposited once however often a run repeats.
 */
import type { Queryable } from "../db/sql.ts";
import type { LeadProvenance } from "./signal_schema.ts";

/** A lead to store. */
export interface NewLead {
  x_user_id: string;
  icp_score: number;
  icp_rationale: string;
  provenance: LeadProvenance;
}

/** A lead just stored. */
export interface StoredLead {
  id: number;
  x_user_id: string;
  icp_score: number;
  icp_rationale: string;
}

/** Stores the leads the agent does not have yet (the person must be a contact) and answers those stored. */
export async function insertLeads(
  sql: Queryable,
  agent: { accountId: string; agentId: number; signalId: number },
  leads: readonly NewLead[],
  now: Date,
): Promise<StoredLead[]> {
  if (leads.length === 0) return [];
  const rows = leads.map((lead) => ({
    account_id: agent.accountId,
    agent_id: agent.agentId,
    signal_id: agent.signalId,
    x_user_id: lead.x_user_id,
    icp_score: lead.icp_score,
    icp_rationale: lead.icp_rationale,
    provenance: sql.json(lead.provenance as never),
    discovered_at: now,
  }));
  return sql<StoredLead[]>`
    insert into signal_leads ${sql(rows as never)}
    on conflict (agent_id, x_user_id) do nothing
    returning id, x_user_id, icp_score, icp_rationale`;
}

/**
 * Adds leads to a list as `signal` members carrying their score, and answers the people
 * added. People already in the list keep their row; it gains the score when it had none.
 */
export async function insertScoredMembers(sql: Queryable, listId: number, accountId: string, leads: readonly StoredLead[], now: Date): Promise<string[]> {
  if (leads.length === 0) return [];
  const ids = leads.map((lead) => lead.x_user_id);
  // `xmax = 0` tells a row this statement inserted from one it updated (PostgreSQL's insert-or-update idiom).
  const rows = await sql<{ x_user_id: string; inserted: boolean }[]>`
    insert into contact_list_members (list_id, account_id, x_user_id, source, added_at, icp_score, icp_rationale)
    select ${listId}, ${accountId}, person, 'signal', ${now}, score, rationale
      from unnest(${ids}::text[], ${leads.map((lead) => lead.icp_score)}::int[], ${leads.map((lead) => lead.icp_rationale)}::text[])
           as t (person, score, rationale)
    on conflict (list_id, x_user_id) do update
       set icp_score = excluded.icp_score, icp_rationale = excluded.icp_rationale
     where contact_list_members.icp_score is null
    returning x_user_id, (xmax = 0) as inserted`;
  return rows.filter((row) => row.inserted).map((row) => row.x_user_id);
}

/** Marks leads deposited into `listId`. */
export async function markDeposited(sql: Queryable, leadIds: readonly number[], listId: number, now: Date): Promise<void> {
  if (leadIds.length === 0) return;
  await sql`
    update signal_leads set deposited = true, deposited_at = ${now}, deposited_list_id = ${listId}
     where id = any(${leadIds as number[]}::bigint[])`;
}
