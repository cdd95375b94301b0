/** SQL the demo datasets need beyond the dataset queries. */
import type { Queryable } from "../db/sql.ts";

/** The id of the owner's live dataset titled `title`, newest first, or undefined. */
export async function demoDatasetIdTitled(sql: Queryable, ownerId: number, title: string, now: Date): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`
    select id from datasets where owner_id = ${ownerId} and title = ${title} and expires_at > ${now} order by created_at desc limit 1`;
  return row?.id;
}
