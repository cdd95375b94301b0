/**
 * The SQL pieces of a lease, written once for every leased row (STYLE.md: "leases and tokens
 * for publish exactly once ... written once"). A lease is taken, renewed and judged on the
 * database's clock (`now()`, the one clock every process shares), so processes whose clocks
 * drift apart still never hold one row at once. Every write after the take checks, in the
 * same statement, that the caller still holds the row. Each area's queries module builds
 * its claim and outcome statements from these pieces.
 */
import type { Queryable, SqlFragment } from "../db/sql.ts";
import type { Lease } from "./lease.ts";

/**
 * Where a table keeps its lease. Two styles exist: published rows (posts, articles, DMs:
 * core/publishing/lease_queries.ts) count an attempt at each take; webhook deliveries
 * count their attempts when the outcome is recorded, so they name no `attempts` column.
 */
export interface LeaseColumns {
  /** Who holds the row (text, null when free). */
  holder: string;
  /** Until when (timestamptz on the database's clock, null when free). */
  until: string;
  /** An integer column counted up at each take, when the table counts attempts there. */
  attempts?: string;
}

/** The pieces of one table's lease; `from` qualifies the columns with a table alias. */
export interface LeasePieces {
  /** WHERE: no lease on the row, or its holder's lease has passed. */
  free(sql: Queryable, from?: string): SqlFragment;
  /** SET: takes the lease for `lease.holder` (and counts the attempt, where counted). */
  take(sql: Queryable, lease: Lease): SqlFragment;
  /**
   * SET: takes the lease, row by row, for the holders of relation `from` (columns `holder`
   * and `lease_seconds`): one statement claiming many rows, each for its own caller.
   */
  takeFrom(sql: Queryable, from: string): SqlFragment;
  /** SET: renews the holder's lease. */
  renew(sql: Queryable, lease: Lease): SqlFragment;
  /** WHERE: the caller still holds the row. */
  heldBy(sql: Queryable, lease: Pick<Lease, "holder">): SqlFragment;
  /** WHERE: the holder named in relation `from` (column `holder`) still holds the row. */
  heldByFrom(sql: Queryable, from: string): SqlFragment;
  /** SET: lets go of the lease. */
  drop(sql: Queryable): SqlFragment;
  /** SELECT: whether a holder's lease still runs. */
  running(sql: Queryable): SqlFragment;
  /** Lets go of every lease on `table` whose holder starts with `prefix`; answers how many rows. */
  releaseByPrefix(sql: Queryable, table: string, prefix: string): Promise<number>;
}

/** The lease pieces of a table that keeps its lease in `columns`. */
export function leasePieces(columns: LeaseColumns): LeasePieces {
  const column = (sql: Queryable, name: string, from?: string) => sql(from ? `${from}.${name}` : name);
  const countAttempt = (sql: Queryable) => (columns.attempts ? sql`, ${sql(columns.attempts)} = ${sql(columns.attempts)} + 1` : sql``);
  const pieces: LeasePieces = {
    free: (sql, from) => sql`(${column(sql, columns.until, from)} is null or ${column(sql, columns.until, from)} < now())`,
    take: (sql, lease) => sql`${sql(columns.holder)} = ${lease.holder},
                 ${sql(columns.until)} = now() + ${lease.leaseSeconds} * interval '1 second'${countAttempt(sql)}`,
    takeFrom: (sql, from) => sql`${sql(columns.holder)} = ${sql(`${from}.holder`)},
                 ${sql(columns.until)} = now() + ${sql(`${from}.lease_seconds`)} * interval '1 second'${countAttempt(sql)}`,
    renew: (sql, lease) => sql`${sql(columns.until)} = now() + ${lease.leaseSeconds} * interval '1 second'`,
    heldBy: (sql, lease) => sql`${sql(columns.holder)} = ${lease.holder}`,
    heldByFrom: (sql, from) => sql`${sql(columns.holder)} = ${sql(`${from}.holder`)}`,
    drop: (sql) => sql`${sql(columns.holder)} = null, ${sql(columns.until)} = null`,
    running: (sql) => sql`coalesce(${sql(columns.until)} >= now(), false)`,
    async releaseByPrefix(sql, table, prefix) {
      const rows = await sql`
        update ${sql(table)} set ${pieces.drop(sql)}
         where ${sql(columns.until)} is not null and starts_with(${sql(columns.holder)}, ${prefix})
        returning id`;
      return rows.length;
    },
  };
  return pieces;
}
