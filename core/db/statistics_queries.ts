/** SQL of the planner's statistics of one table (`pg_stat_user_tables`, `ANALYZE`). */
import type { Sql } from "./sql.ts";

/** What PostgreSQL counts of a table since its last analyze. */
export interface TableChanges {
  /** Rows inserted, updated or deleted since the table was last analyzed. */
  changed: number;
  /** The rows the planner believes the table holds (0 before its first analyze). */
  rows: number;
}

/** The table's changes since its last analyze (as the server has counted them: each session reports within about a second). */
export async function changesSinceAnalyze(sql: Sql, table: string): Promise<TableChanges> {
  const [row] = await sql<{ changed: number; rows: number }[]>`
    select coalesce(s.n_mod_since_analyze, 0)::float8 as changed, greatest(c.reltuples, 0)::float8 as rows
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
     where c.oid = to_regclass(${table})`;
  return row ?? { changed: 0, rows: 0 };
}

/**
 * Analyzes the table unless another session is analyzing it through here at this moment
 * (an advisory lock taken without waiting: two processes never sample one table twice over);
 * answers whether it ran.
 */
export function analyzeTable(sql: Sql, table: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const [turn] = await tx<{ got: boolean }[]>`select pg_try_advisory_xact_lock(hashtextextended(${`analyze ${table}`}, 0)) as got`;
    if (!turn.got) return false;
    await tx`analyze ${tx(table)}`;
    return true;
  });
}
