/** SQL of the bulk queue calls (migration 0010). */
import type { Queryable } from "../db/sql.ts";
import type { PostStatus } from "./scheduled_post_schema.ts";

/** A post as the bulk calls see it. */
export interface BulkPostRow {
  id: number;
  status: PostStatus;
  scheduled_for: Date | null;
  auto_retweet: { after_hours: number; remove_after_hours?: number } | null;
  quota_period_start: Date | null;
  /** The publisher already wrote a part of the current version. */
  publishing: boolean;
}

/**
 * The account's posts among `ids` (decimal text), locked for the transaction in id order
 * (a fixed order, so two bulk calls over the same posts cannot deadlock).
 */
export async function lockAccountPosts(sql: Queryable, accountId: string, ids: readonly string[]): Promise<Map<string, BulkPostRow>> {
  const rows = await sql<BulkPostRow[]>`
    select p.id, p.status, p.scheduled_for, p.auto_retweet, p.quota_period_start,
           exists (select 1 from publish_parts pp where pp.post_id = p.id and pp.publish_version = p.publish_version) as publishing
      from scheduled_posts p
     where p.account_id = ${accountId} and p.id = any(${sql.array(ids as string[])}::bigint[])
     order by p.id
       for update of p`;
  return new Map(rows.map((row) => [String(row.id), row]));
}

/** Sets new times in one statement. */
export async function retimePosts(sql: Queryable, moves: readonly { id: number; at: Date }[], now: Date): Promise<void> {
  if (moves.length === 0) return;
  await sql`
    update scheduled_posts p set scheduled_for = m.at, updated_at = ${now}
      from unnest(${sql.array(moves.map((move) => move.id))}::bigint[], ${sql.array(moves.map((move) => move.at.toISOString()))}::timestamptz[]) as m (id, at)
     where p.id = m.id`;
}

/** Attaches one auto retweet setting to every post in `ids`. */
export async function setAutoRetweet(
  sql: Queryable,
  ids: readonly number[],
  autoRetweet: { after_hours: number; remove_after_hours?: number },
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update scheduled_posts set auto_retweet = ${sql.json(autoRetweet)}, updated_at = ${now}
     where id = any(${sql.array(ids as number[])}::bigint[])`;
}

/** Deletes the posts (their tags and publish records go with them). */
export async function deletePosts(sql: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from scheduled_posts where id = any(${sql.array(ids as number[])}::bigint[])`;
}
