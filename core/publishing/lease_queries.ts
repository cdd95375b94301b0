/**
 * The publication lease, written once for every publisher (STYLE.md: "leases and tokens for
 * publish exactly once ... written once"): scheduled posts and articles both carry
 * `publish_claimed_by`, `publish_claimed_until` and `publish_attempts`. A publish call claims
 * its row for a lease on the database's clock (the one every process shares), so a request
 * and a job, or two server processes, never publish one row at once, and a crashed holder's
 * lease passes. Every write after the claim checks, in the same statement, that the caller
 * still holds it. These are the SQL pieces; each area's queries module builds its claim and
 * its outcome statements from them.
 */
import type { Queryable, SqlFragment } from "../db/sql.ts";

/** Who holds a row's publication, for how long. */
export interface Lease {
  /** Random per publish call: two calls of one process are two holders. */
  holder: string;
  leaseSeconds: number;
}

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

/** WHERE: no lease on the row, or its holder's lease has passed. */
export function leaseFree(sql: Queryable) {
  return sql`(publish_claimed_until is null or publish_claimed_until < now())`;
}

/** SET: takes the lease for `lease.holder` and counts the attempt. */
export function takeLease(sql: Queryable, lease: Lease) {
  return sql`publish_claimed_by = ${lease.holder},
             publish_claimed_until = now() + ${lease.leaseSeconds} * interval '1 second',
             publish_attempts = publish_attempts + 1`;
}

/** SET: renews the holder's lease (at every step it records). */
export function renewLease(sql: Queryable, lease: Lease) {
  return sql`publish_claimed_until = now() + ${lease.leaseSeconds} * interval '1 second'`;
}

/** WHERE: the caller still holds the row. */
export function heldBy(sql: Queryable, lease: Lease) {
  return sql`publish_claimed_by = ${lease.holder}`;
}

/** SET: lets go of the lease. */
export function dropLease(sql: Queryable) {
  return sql`publish_claimed_by = null, publish_claimed_until = null`;
}

/** SELECT: whether another holder's lease still runs. */
export function leaseRunning(sql: Queryable) {
  return sql`coalesce(publish_claimed_until >= now(), false)`;
}

/** The prefix of the leases a job worker takes (its holders start with it), so its shutdown can release them. */
export function workerHolderPrefix(workerId: string): string {
  return `${workerId}|`;
}

/**
 * Releases every publication lease job worker `workerId` holds, posts, articles and DMs (graceful
 * shutdown, after its handlers were stopped): another process may claim the rows at once
 * instead of waiting out the lease. Safe with a handler still running: each of its writes
 * re-checks the lease and fails, and a part it may have published is found by its token
 * before any retry. Answers how many rows it released.
 */
export async function releaseLeasesOf(sql: Queryable, workerId: string): Promise<number> {
  const prefix = workerHolderPrefix(workerId);
  let released = 0;
  for (const table of ["scheduled_posts", "articles", "dm_messages"] as const satisfies readonly LeasedTable[]) {
    const rows = await sql`
      update ${sql(table)} set ${dropLease(sql)}
       where publish_claimed_until is not null and starts_with(publish_claimed_by, ${prefix})
      returning id`;
    released += rows.length;
  }
  return released;
}

function heldWhere(sql: Queryable, held: HeldRow) {
  return sql`id = ${held.id} and ${heldBy(sql, held.lease)} ${held.scope ? sql`and ${held.scope}` : sql``}`;
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
    update ${sql(held.table)} set ${also ? sql`${also}, ` : sql``}${dropLease(sql)}
     where ${heldWhere(sql, held)}
    returning id`;
  return rows.length === 1;
}
