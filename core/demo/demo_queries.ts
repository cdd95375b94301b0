/** SQL of the demo world (core/demo/): lookups that make seeding idempotent, and its direct writes. */
import type { Queryable } from "../db/sql.ts";

/** An uploaded, unattached `demo.png` of `accountId` created after `since`, to reuse. */
export async function reusableDemoImage(sql: Queryable, accountId: string, since: Date): Promise<{ object_key: string } | undefined> {
  const [existing] = await sql<{ object_key: string }[]>`
    select object_key from media_uploads
     where account_id = ${accountId} and filename = 'demo.png' and uploaded_at is not null and attached_at is null
       and purge_started_at is null and created_at > ${since}
     order by created_at desc limit 1`;
  return existing;
}

/** The id of the first post of `accountId` titled `title`, or undefined. */
export async function demoPostByTitle(sql: Queryable, accountId: string, title: string): Promise<number | undefined> {
  const [existing] = await sql<{ id: number }[]>`
    select id from scheduled_posts where account_id = ${accountId} and title = ${title} order by id limit 1`;
  return existing?.id;
}

/** The demo Workers' suggestions of `accountId` still to review, newest first. */
export async function demoSuggestionsToReview(sql: Queryable, accountId: string): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select s.id from worker_suggestions s join workers w on w.id = s.worker_id
     where s.account_id = ${accountId} and s.status = 'to_review' and w.name like 'Demo %'
     order by s.generated_at desc, s.id desc`;
  return rows.map((row) => row.id);
}

/** Sets a user's post quota. */
export async function setPostQuota(sql: Queryable, userId: number, quota: number): Promise<void> {
  await sql`update users set post_quota = ${quota} where id = ${userId}`;
}

/** Whether the database has any user. */
export async function anyUser(sql: Queryable): Promise<boolean> {
  const [row] = await sql<{ present: boolean }[]>`select exists (select 1 from users) as present`;
  return row.present;
}

/** The billing anchor of `userId`. */
export async function billingAnchorOf(sql: Queryable, userId: number): Promise<Date> {
  const [user] = await sql<{ billing_anchor: Date }[]>`select billing_anchor from users where id = ${userId}`;
  return user.billing_anchor;
}

/** The id of the workspace's tag `name`, created with `color` when missing. */
export async function ensureDemoTag(sql: Queryable, workspaceId: string, name: string, color: string): Promise<number> {
  await sql`insert into tags (workspace_id, name, color) values (${workspaceId}, ${name}, ${color})
            on conflict (workspace_id, lower(name)) do nothing`;
  const [row] = await sql<{ id: number }[]>`select id from tags where workspace_id = ${workspaceId} and lower(name) = ${name}`;
  return row.id;
}
