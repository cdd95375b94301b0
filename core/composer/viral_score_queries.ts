/** SQL of the viral score (migration 0009): the first call of each account owner. */
import type { Sql } from "../db/sql.ts";

/**
 * Records `ownerId`'s first viral score call; answers true only for the call that
 * inserted the row, so two concurrent first calls charge the extra credit once.
 */
export async function recordFirstCall(sql: Sql, ownerId: string, at: Date): Promise<boolean> {
  const rows = await sql<{ owner_id: string }[]>`
    insert into viral_score_first_calls (owner_id, first_called_at) values (${ownerId}, ${at})
    on conflict (owner_id) do nothing
    returning owner_id`;
  return rows.length === 1;
}
