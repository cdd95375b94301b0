/** `GET /v1/scheduled-posts` and `GET /v1/scheduled-posts/{id}` (spec: Scheduling). */
import type { AccountContext, KeyContext } from "../context.ts";
import { pageInfo } from "../schema.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";
import { POST_STATUSES, type ScheduledPost } from "./scheduled_post_schema.ts";
import type { ListPostsInput, PostByIdInput } from "./scheduled_post_input_schema.ts";
import { listPostRows, tagsOfPosts } from "./scheduled_posts_queries.ts";
import { toScheduledPost } from "./post_view.ts";
import { reachablePost } from "./post_access.ts";

/** A page of the account's posts (default: all four statuses, most recently updated first). */
export async function listPosts(ctx: AccountContext, input: ListPostsInput) {
  assertSchedulerReachable(ctx);
  const { sql } = ctx.services;
  const offset = (input.page - 1) * input.limit;
  const rows = await listPostRows(sql, {
    accountId: ctx.account.id,
    statuses: input.status?.length ? input.status : POST_STATUSES,
    tagIds: input.tags,
    from: input.from === undefined ? undefined : new Date(input.from),
    to: input.to === undefined ? undefined : new Date(input.to),
    limit: input.limit,
    offset,
  });
  const page = rows.slice(0, input.limit);
  const tags = await tagsOfPosts(
    sql,
    page.map((row) => row.id),
  );
  const data = page.map((row) => toScheduledPost(row, (tags.get(row.id) ?? []) as ScheduledPost["tags"]));
  return { data, pagination: pageInfo(input.page, input.limit, undefined, rows.length) };
}

/** One post the key can read. */
export async function getPost(ctx: KeyContext, input: PostByIdInput) {
  assertSchedulerReachable(ctx);
  const { sql } = ctx.services;
  const { row } = await reachablePost(ctx, sql, Number(input.id), { accountId: input.account_id, write: false });
  const tags = await tagsOfPosts(sql, [row.id]);
  return { data: toScheduledPost(row, (tags.get(row.id) ?? []) as ScheduledPost["tags"]) };
}
