/** SQL the database adapter runs itself (open_database.ts) and `GET /readyz` asks (adapters/http/ops_routes.ts). */
import type { Queryable } from "../../core/db/sql.ts";

/** One round trip: the driver connects lazily, so this makes a bad URL fail at startup. */
export async function ping(sql: Queryable): Promise<void> {
  await sql`select 1`;
}
