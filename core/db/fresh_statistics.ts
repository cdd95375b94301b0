/**
 * Fresh planner statistics for a table that fills in bursts (a queue). PostgreSQL's autovacuum
 * analyzes a table once 50 rows and 10% of it changed (its defaults), but looks at most once
 * a minute (`autovacuum_naptime`), and embedded PGlite runs no autovacuum. In between, a
 * queue that grew from nothing to ten thousand rows within seconds is planned from the
 * statistics of an almost empty table: the webhook claim then reads every pending delivery of
 * an endpoint for each one it takes (the planner believes an endpoint has one), and one
 * endpoint's deliveries fell from about 1,200 a second to 500 (bench/webhooks_section.ts).
 * The writer that fills the table calls this after it wrote. The server's count of changes
 * (`n_mod_since_analyze`) trails by up to a second (each session reports its counts at most
 * once a second), so the writer's own count since its last analyze counts too: the first
 * thousand rows of a burst are enough.
 */
import type { Sql } from "./sql.ts";
import { analyzeTable, changesSinceAnalyze } from "./statistics_queries.ts";

/** When a table's statistics are stale: more rows changed than `baseRows` plus `fraction` of the table. */
export interface StalePolicy {
  baseRows: number;
  fraction: number;
}

/**
 * The default: 1,000 rows and 25% of the table. The floor spares small tables an analyze at
 * every check; past the first burst a queue's shape changes little, and an analyze of a
 * large table samples 30,000 rows.
 */
export const DEFAULT_STALE_POLICY: StalePolicy = { baseRows: 1_000, fraction: 0.25 };

/** The least time between two reads of the server's count for one table by one process, in ms. */
const CHECK_EVERY_MS = 250;

/** What one pool knows of one table: when it last read the server's count, the table's rows then, and the rows it wrote since its last analyze. */
interface TableWatch {
  checkedAt: number;
  rows: number;
  written: number;
}

const watches = new WeakMap<Sql, Map<string, TableWatch>>();

/**
 * Counts `written` rows just written to `table` and analyzes the table when its statistics
 * are stale under `policy` (reading the server's count at most every 250 ms per pool);
 * answers whether this call analyzed it.
 */
export async function keepStatisticsFresh(sql: Sql, table: string, written: number, policy: StalePolicy = DEFAULT_STALE_POLICY): Promise<boolean> {
  let tables = watches.get(sql);
  if (!tables) watches.set(sql, (tables = new Map()));
  let watch = tables.get(table);
  if (!watch) tables.set(table, (watch = { checkedAt: Number.NEGATIVE_INFINITY, rows: 0, written: 0 }));
  watch.written += written;
  const now = performance.now();
  const stale = (changed: number, rows: number) => changed > policy.baseRows + policy.fraction * rows;
  // Within 250 ms of the last read only the writer's own count can make it stale.
  if (now - watch.checkedAt < CHECK_EVERY_MS && !stale(watch.written, watch.rows)) return false;
  watch.checkedAt = now;
  const { changed, rows } = await changesSinceAnalyze(sql, table);
  watch.rows = rows;
  if (!stale(Math.max(changed, watch.written), rows)) return false;
  watch.written = 0;
  return analyzeTable(sql, table);
}
