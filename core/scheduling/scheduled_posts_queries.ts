/** SQL of scheduled posts and their tags (migration 0010). */
import type { Queryable } from "../db/sql.ts";
import type { PostStatus } from "./scheduled_post_schema.ts";

/** A part as stored. */
export interface StoredPart {
  text: string;
  media: { object_key: string; alt_text: string | null }[];
}

/** A scheduled_posts row with its account's handle. */
export interface ScheduledPostRow {
  id: number;
  account_id: string;
  username: string;
  status: PostStatus;
  legacy_board: boolean;
  scheduled_for: Date | null;
  parts: StoredPart[];
  title: string | null;
  scratchpad: string | null;
  auto_retweet: { after_hours: number; remove_after_hours?: number } | null;
  auto_delete: { after_hours: number; threshold?: number } | null;
  /** The auto DM attached (core/dm/auto_dm.ts), without its text. */
  auto_dm: { triggers: ("reply" | "repost")[]; max: number; batch_mode: boolean; enabled: boolean } | null;
  auto_plug: { template_id: string; threshold: number } | null;
  super_followers_only: boolean;
  quota_period_start: Date | null;
  publish_version: number;
  error: string | null;
  sent_at: Date | null;
  x_post_ids: string[] | null;
  auto_retweeted_at: Date | null;
  auto_retweet_removed_at: Date | null;
  auto_deleted_at: Date | null;
  auto_plugged_at: Date | null;
  auto_plug_post_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Columns a write may set. */
export interface PostColumns {
  status?: PostStatus;
  scheduled_for?: Date | null;
  parts?: StoredPart[];
  title?: string | null;
  scratchpad?: string | null;
  auto_retweet?: ScheduledPostRow["auto_retweet"];
  auto_delete?: ScheduledPostRow["auto_delete"];
  auto_plug?: ScheduledPostRow["auto_plug"];
  super_followers_only?: boolean;
  quota_period_start?: Date | null;
  error?: string | null;
}

/** What the list filters on (spec: GET /v1/scheduled-posts). */
export interface PostFilter {
  accountId: string;
  statuses: readonly PostStatus[];
  tagIds?: readonly number[];
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

const JSON_COLUMNS = new Set(["parts", "auto_retweet", "auto_delete", "auto_plug"]);

function columnValues(sql: Queryable, columns: PostColumns): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    values[name] = JSON_COLUMNS.has(name) && value !== null ? sql.json(value as never) : value;
  }
  return values;
}

/** Inserts a post created at `now` (`created_at` and `updated_at` from the one clock later updates use); answers its id. */
export async function insertPost(
  sql: Queryable,
  accountId: string,
  columns: PostColumns & { status: PostStatus; parts: StoredPart[] },
  now: Date,
): Promise<number> {
  const values = { account_id: accountId, ...columnValues(sql, columns), created_at: now, updated_at: now };
  const [row] = await sql<{ id: number }[]>`insert into scheduled_posts ${sql(values)} returning id`;
  return row.id;
}

/** Changes the given columns (and `updated_at`) of a post. */
export async function updatePostColumns(sql: Queryable, id: number, columns: PostColumns, now: Date): Promise<void> {
  const values = { ...columnValues(sql, columns), updated_at: now };
  await sql`update scheduled_posts set ${sql(values)} where id = ${id}`;
}

const SELECT_POST = (sql: Queryable) => sql`
  select p.id, p.account_id, a.username, p.status, p.legacy_board, p.scheduled_for, p.parts, p.title, p.scratchpad,
         p.auto_retweet, p.auto_delete, p.auto_plug, p.super_followers_only, p.quota_period_start, p.publish_version,
         p.error, p.sent_at, p.x_post_ids, p.auto_retweeted_at, p.auto_retweet_removed_at, p.auto_deleted_at,
         p.auto_plugged_at, p.auto_plug_post_id,
         (select json_build_object('triggers', d.triggers, 'max', d.max, 'batch_mode', d.batch_mode, 'enabled', d.enabled)
            from dm_auto_settings d where d.post_id = p.id) as auto_dm,
         p.created_at, p.updated_at
    from scheduled_posts p join accounts a on a.id = p.account_id`;

/** One post by id, or undefined; `forUpdate` locks it for the transaction. */
export async function postById(sql: Queryable, id: number, options: { forUpdate?: boolean } = {}): Promise<ScheduledPostRow | undefined> {
  const [row] = await sql<ScheduledPostRow[]>`${SELECT_POST(sql)} where p.id = ${id} ${options.forUpdate ? sql`for update of p` : sql``}`;
  return row;
}

/** The posts among `ids` that exist, in no particular order. */
export function postsByIds(sql: Queryable, ids: readonly number[]): Promise<ScheduledPostRow[]> {
  return sql<ScheduledPostRow[]>`${SELECT_POST(sql)} where p.id = any(${sql.array(ids as number[])}::bigint[])`;
}

/**
 * A page of an account's posts. Without a time window: most recently updated first; with
 * `from`/`to` (inclusive, on the scheduled time; drafts have no time and are left out):
 * oldest post time first (spec: GET /v1/scheduled-posts). One row more than `limit` is
 * read to tell `has_more` without counting every row.
 */
export async function listPostRows(sql: Queryable, filter: PostFilter): Promise<ScheduledPostRow[]> {
  const windowed = filter.from !== undefined || filter.to !== undefined;
  return sql<ScheduledPostRow[]>`
    ${SELECT_POST(sql)}
     where p.account_id = ${filter.accountId}
       and p.status = any(${sql.array(filter.statuses as string[])}::text[])
       ${filter.tagIds?.length ? sql`and exists (select 1 from scheduled_post_tags pt where pt.post_id = p.id and pt.tag_id = any(${sql.array(filter.tagIds as number[])}::bigint[]))` : sql``}
       ${windowed ? sql`and p.status <> 'draft' and p.scheduled_for is not null` : sql``}
       ${filter.from ? sql`and p.scheduled_for >= ${filter.from}` : sql``}
       ${filter.to ? sql`and p.scheduled_for <= ${filter.to}` : sql``}
     order by ${windowed ? sql`p.scheduled_for asc, p.id asc` : sql`p.updated_at desc, p.id desc`}
     limit ${filter.limit + 1} offset ${filter.offset}`;
}

/** The tags of each of `postIds`, by name. */
export async function tagsOfPosts(sql: Queryable, postIds: readonly number[]): Promise<Map<number, { id: number; name: string; color: string }[]>> {
  const byPost = new Map<number, { id: number; name: string; color: string }[]>();
  if (postIds.length === 0) return byPost;
  const rows = await sql<{ post_id: number; id: number; name: string; color: string }[]>`
    select pt.post_id, t.id, t.name, t.color
      from scheduled_post_tags pt join tags t on t.id = pt.tag_id
     where pt.post_id = any(${sql.array(postIds as number[])}::bigint[])
     order by lower(t.name), t.id`;
  for (const row of rows) {
    const list = byPost.get(row.post_id) ?? [];
    list.push({ id: row.id, name: row.name, color: row.color });
    byPost.set(row.post_id, list);
  }
  return byPost;
}

/** The ids among `tagIds` that are tags of the workspace. */
export async function workspaceTagIds(sql: Queryable, workspaceId: string, tagIds: readonly number[]): Promise<Set<number>> {
  if (tagIds.length === 0) return new Set();
  const rows = await sql<{ id: number }[]>`
    select id from tags where workspace_id = ${workspaceId} and id = any(${sql.array(tagIds as number[])}::bigint[])`;
  return new Set(rows.map((row) => row.id));
}

/** Replaces a post's tags. */
export async function setPostTags(sql: Queryable, postId: number, tagIds: readonly number[]): Promise<void> {
  await sql`delete from scheduled_post_tags where post_id = ${postId}`;
  if (tagIds.length === 0) return;
  await sql`
    insert into scheduled_post_tags (post_id, tag_id)
    select ${postId}, tag_id from unnest(${sql.array(tagIds as number[])}::bigint[]) as tag_id`;
}

/** Deletes a post (its tags and publish records go with it). */
export async function deletePostRow(sql: Queryable, id: number): Promise<void> {
  await sql`delete from scheduled_posts where id = ${id}`;
}

/** True once the publisher started on the post's current version (a part is publishing or published). */
export async function publicationStarted(sql: Queryable, postId: number, version: number): Promise<boolean> {
  const rows = await sql`select 1 from publish_parts where post_id = ${postId} and publish_version = ${version} limit 1`;
  return rows.length > 0;
}

/** Whether an account has the network's premium tier (longer posts). */
export async function accountHasPremium(sql: Queryable, accountId: string): Promise<boolean> {
  const [row] = await sql<{ x_premium: boolean }[]>`select x_premium from accounts where id = ${accountId}`;
  return row?.x_premium ?? false;
}
