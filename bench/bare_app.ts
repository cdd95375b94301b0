/**
 * The baseline: a bare h3 route that runs exactly the SQL of `GET /v1/tags`
 * (`listTagRows`) for a fixed workspace, with no auth, no limits, no tRPC and no zod,
 * and answers the same `{ data, pagination }` body, so the difference between the two
 * routes is the request path itself.
 */
import { H3 } from "h3";
import type { Sql } from "../core/db/sql.ts";
import { pageInfo } from "../core/schema.ts";
import { listTagRows } from "../core/tags/tags_queries.ts";

/** The bare route's path. */
export const BARE_PATH = "/bare/tags";

/** An app answering `GET /bare/tags` with the first 20 tags of `workspaceId`. */
export function createBareApp(sql: Sql, workspaceId: string): H3 {
  const app = new H3();
  app.get(BARE_PATH, async () => {
    const limit = 20;
    const rows = await listTagRows(sql, workspaceId, limit, 0);
    // The same public fields as core/tags/tags.ts's toTag, so both bodies are the same size.
    const data = rows.map((row) => ({
      id: row.id,
      name: row.name,
      color: row.color,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
    return { data, pagination: pageInfo(1, limit, rows[0]?.total ?? 0, rows.length) };
  });
  return app;
}
