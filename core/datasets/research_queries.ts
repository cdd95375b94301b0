/**
 * SQL of research runs (docs/areas.md "Datasets"): the people a run reads from a contact list, a
 * signal agent's leads or another dataset, and one step of a background run (its cursor,
 * counts and skipped profiles saved together, under the dataset's row lock).
 */
import type { Queryable } from "../db/sql.ts";
import type { SkippedProfile } from "./research_target.ts";

/** A person a run reads, as a stored source knows them. */
export interface StoredPerson {
  x_user_id: string;
  username: string | null;
}

/** The members of contact list `listId`, newest added first (the order the list shows), at most `limit`. */
export async function listPeople(sql: Queryable, listId: number, limit: number): Promise<StoredPerson[]> {
  return sql<StoredPerson[]>`
    select m.x_user_id, c.username
      from contact_list_members m join contacts c on c.account_id = m.account_id and c.x_user_id = m.x_user_id
     where m.list_id = ${listId}
     order by m.added_at desc, m.id desc limit ${limit}`;
}

/** The leads of agent `agentId`, best ICP score first (newest first among equals), at most `limit`. */
export async function agentLeadsBestFirst(sql: Queryable, agentId: number, limit: number): Promise<StoredPerson[]> {
  return sql<StoredPerson[]>`
    select l.x_user_id, c.username
      from signal_leads l left join contacts c on c.account_id = l.account_id and c.x_user_id = l.x_user_id
     where l.agent_id = ${agentId}
     order by l.icp_score desc, l.discovered_at desc, l.id desc limit ${limit}`;
}

/** The people of dataset `datasetId` in row order (rows without an X id left out), at most `limit`. */
export async function datasetPeople(sql: Queryable, datasetId: string, limit: number): Promise<StoredPerson[]> {
  return sql<StoredPerson[]>`
    select x_user_id, handle as username from dataset_rows
     where dataset_id = ${datasetId} and x_user_id is not null
     order by position limit ${limit}`;
}

/** Where a background run stands, read under the dataset's row lock; undefined when it is no longer collecting. */
export async function lockResearchRun(sql: Queryable, datasetId: string): Promise<{ cursor: unknown; charges: Record<string, unknown> } | undefined> {
  const [row] = await sql<{ cursor: unknown; charges: Record<string, unknown> }[]>`
    select cursor, charges from datasets where id = ${datasetId} and status = 'collecting' for update`;
  return row;
}

/** Saves one step of a background run: the next profile, the counts and the skipped list. */
export async function saveResearchStep(
  sql: Queryable,
  datasetId: string,
  step: { next: number; counts: Record<string, number>; skipped: SkippedProfile[]; rowsCollected: number; now: Date },
): Promise<void> {
  await sql`
    update datasets set cursor = ${sql.json({ next: step.next } as never)}, counts = ${sql.json(step.counts as never)},
      charges = jsonb_set(charges, '{skipped}', ${sql.json(step.skipped as never)}::jsonb), rows_collected = ${step.rowsCollected},
      updated_at = ${step.now}
     where id = ${datasetId} and status = 'collecting'`;
}

/** Rows a research dataset holds (one per person researched). */
export async function researchedCount(sql: Queryable, datasetId: string): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from dataset_rows where dataset_id = ${datasetId}`;
  return count;
}
