/**
 * The baseline of the scheduled-posts listing bench: a bare h3 route that runs exactly
 * the SQL of `GET /v1/scheduled-posts` (`listPostRows` + `tagsOfPosts`) for one account and
 * answers the same `{ data, pagination }` body, with no auth, limits, tRPC or zod, so the
 * difference to the full path is the request path itself.
 */
import { H3 } from "h3";
import type { Sql } from "../core/db/sql.ts";
import { pageInfo } from "../core/schema.ts";
import { POST_STATUSES, type ScheduledPost } from "../core/scheduling/scheduled_post_schema.ts";
import { listPostRows, tagsOfPosts } from "../core/scheduling/scheduled_posts_queries.ts";
import { toScheduledPost } from "../core/scheduling/post_view.ts";

/** The bare route's path (`?page=` and `?limit=` as on the real one). */
export const BARE_LIST_PATH = "/bare/scheduled-posts";

/** An app answering `GET /bare/scheduled-posts` for `accountId`. */
export function createBareListApp(sql: Sql, accountId: string): H3 {
  const app = new H3();
  app.get(BARE_LIST_PATH, async (event) => {
    const query = new URL(event.req.url).searchParams;
    const limit = Number(query.get("limit") ?? 20);
    const page = Number(query.get("page") ?? 1);
    const rows = await listPostRows(sql, { accountId, statuses: POST_STATUSES, limit, offset: (page - 1) * limit });
    const shown = rows.slice(0, limit);
    const tags = await tagsOfPosts(
      sql,
      shown.map((row) => row.id),
    );
    const data = shown.map((row) => toScheduledPost(row, (tags.get(row.id) ?? []) as ScheduledPost["tags"]));
    return { data, pagination: pageInfo(page, limit, undefined, rows.length) };
  });
  return app;
}
