/**
 * The publication lease (core/leases/ holds the mechanism): scheduled posts, articles and
 * DMs all carry `publish_claimed_by`, `publish_claimed_until` and `publish_attempts`. A
 * publish call claims its row for a lease on the database's clock, so a request and a job,
 * or two server processes, never publish one row at once, and a crashed holder's lease
 * passes; each take counts an attempt. Unlike webhook deliveries, these leases are released
 * when a job runner shuts down (`releaseLeasesOf`).
 */
import type { Queryable, SqlFragment } from "../db/sql.ts";
import { type Lease, runnerHolderPrefix } from "../leases/lease.ts";
import { leasePieces } from "../leases/lease_queries.ts";

/** The lease pieces of every published table (the same columns on each). */
export const publicationLease = leasePieces({ holder: "publish_claimed_by", until: "publish_claimed_until", attempts: "publish_attempts" });

/** The tables published under a lease. */
export type LeasedTable = "scheduled_posts" | "articles" | "dm_messages";

/** A row the caller claimed, and the state it expects the row to still be in (`scope`). */
export interface HeldRow {
  table: LeasedTable;
  id: number;
  lease: Lease;
  /** Extra conditions of holding it (`publish_version = 3 and status = 'scheduled'`); default none. */
  scope?: SqlFragment;
}

/**
 * Releases every publication lease job runner `runnerId` holds, posts, articles and DMs
 * (graceful shutdown, after its handlers were stopped): another process may claim the rows
 * at once instead of waiting out the lease. Safe with a handler still running: each of its
 * writes re-checks the lease and fails, and a part it may have published is found by its
 * token before any retry. Answers how many rows it released.
 */
export async function releaseLeasesOf(sql: Queryable, runnerId: string): Promise<number> {
  const prefix = runnerHolderPrefix(runnerId);
  let released = 0;
  for (const table of ["scheduled_posts", "articles", "dm_messages"] as const satisfies readonly LeasedTable[]) {
    released += await publicationLease.releaseByPrefix(sql, table, prefix);
  }
  return released;
}

function heldWhere(sql: Queryable, held: HeldRow) {
  return sql`id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)} ${held.scope ? sql`and ${held.scope}` : sql``}`;
}

/**
 * Locks the row for its failure (inside the caller's transaction) when the caller still
 * holds it; answers what the quota refund needs, or undefined.
 */
export async function lockHeld(sql: Queryable, held: HeldRow): Promise<{ account_id: string; quota_period_start: Date | null } | undefined> {
  const [row] = await sql<{ account_id: string; quota_period_start: Date | null }[]>`
    select account_id, quota_period_start from ${sql(held.table)} where ${heldWhere(sql, held)} for update`;
  return row;
}

/**
 * Lets go of the lease (after a failure that will be retried, so the retry need not wait
 * for it), setting `also` as well; false when the caller no longer held the row.
 */
export async function releaseLease(sql: Queryable, held: HeldRow, also?: SqlFragment): Promise<boolean> {
  const rows = await sql`
    update ${sql(held.table)} set ${also ? sql`${also}, ` : sql``}${publicationLease.drop(sql)}
     where ${heldWhere(sql, held)}
    returning id`;
  return rows.length === 1;
}
