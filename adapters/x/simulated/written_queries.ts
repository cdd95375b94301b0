/**
 * SQL for what Threadline's users wrote on the simulated network (migration 0007). Each
 * function takes `sql` (pool or transaction) and returns typed rows.
 */
import type { Queryable } from "../../../core/db/sql.ts";
import { perTurn } from "../../../core/db/turn_batches.ts";

/** A written post. */
export interface WrittenPostRow {
  seq: number;
  post_id: string;
  author_id: string;
  kind: "post" | "reply" | "quote" | "repost";
  text: string;
  media_keys: string[];
  reply_to_id: string | null;
  reply_to_user_id: string | null;
  quoted_id: string | null;
  reposted_id: string | null;
  conversation_id: string;
  is_thread_continuation: boolean;
  mentioned_ids: string[];
  article_id: string | null;
  article_title: string | null;
  client_token: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

/** A written article. */
export interface ArticleRow {
  seq: number;
  article_id: string;
  author_id: string;
  title: string;
  markdown: string;
  cover_url: string | null;
  status: "draft" | "published";
  post_id: string | null;
  client_token: string | null;
  created_at: Date;
  published_at: Date | null;
}

/** A sent DM. */
export interface DmRow {
  seq: number;
  dm_id: string;
  sender_id: string;
  recipient_id: string;
  text: string;
  client_token: string | null;
  created_at: Date;
}

/** A Threadline account as the network knows it (a "guest" of the world). */
export interface GuestAccountRow {
  id: string;
  username: string;
  name: string;
  avatar_url: string;
  x_premium: boolean;
  created_at: Date;
}

/** The next number for a written post, article or DM. */
export async function nextWriteSeq(sql: Queryable): Promise<number> {
  const [row] = await sql<{ seq: number }[]>`select nextval('network_write_seq') as seq`;
  return row.seq;
}

/** Inserts a post; undefined when the author already used its token (or already reposts the post). */
export async function insertWrittenPost(sql: Queryable, row: Omit<WrittenPostRow, "deleted_at">): Promise<WrittenPostRow | undefined> {
  const [inserted] = await sql<WrittenPostRow[]>`
    insert into network_posts (seq, post_id, author_id, kind, text, media_keys, reply_to_id, reply_to_user_id, quoted_id,
                               reposted_id, conversation_id, is_thread_continuation, mentioned_ids, article_id, article_title,
                               client_token, created_at)
    values (${row.seq}, ${row.post_id}, ${row.author_id}, ${row.kind}, ${row.text}, ${row.media_keys}, ${row.reply_to_id},
            ${row.reply_to_user_id}, ${row.quoted_id}, ${row.reposted_id}, ${row.conversation_id}, ${row.is_thread_continuation},
            ${row.mentioned_ids}, ${row.article_id}, ${row.article_title}, ${row.client_token}, ${row.created_at})
    on conflict do nothing
    returning *`;
  return inserted;
}

/** What `publishWrittenPost` found or did. */
export type WrittenPublication =
  | { outcome: "inserted" | "existing"; row: WrittenPostRow }
  /** The author published the same text within the window. */
  | { outcome: "duplicate" }
  /** Another call with the same token won the insert a moment ago. */
  | { outcome: "raced" };

/** A post to publish: the row without what the insert gives it, and its rules. */
export interface NewWrittenPost {
  row: Omit<WrittenPostRow, "seq" | "post_id" | "deleted_at" | "conversation_id"> & { conversation_id: string | null };
  /** The id of sequence number 0 at the post's time (post_ids.ts: a written id's payload is its sequence number). */
  idBase: string;
  /** Refuse the text when the author published it at or after this time (absent: no check). */
  duplicateSince?: Date;
}

/** The columns of network_posts, in the order `WrittenPostRow` reads them. */
const WRITTEN_COLUMNS = `seq, post_id, author_id, kind, text, media_keys, reply_to_id, reply_to_user_id, quoted_id, reposted_id,
  conversation_id, is_thread_continuation, mentioned_ids, article_id, article_title, client_token, created_at, deleted_at`;

/**
 * Publishes a post: the author's live post with the same token answers (`existing`); else a
 * live post with the same text since `duplicateSince` refuses it (`duplicate`); else the row
 * is inserted with the next sequence number, its id `idBase + seq`, its conversation its own
 * id when none is given. The publications of one loop turn share one statement.
 */
export const publishWrittenPost: (sql: Queryable, post: NewWrittenPost) => Promise<WrittenPublication> = perTurn(publishWrittenPosts);

/** `publishWrittenPost` for many posts in one statement; answers each one's outcome in order. */
export async function publishWrittenPosts(sql: Queryable, posts: readonly NewWrittenPost[]): Promise<WrittenPublication[]> {
  const input = posts.map(({ row, idBase, duplicateSince }, n) => ({
    ...row,
    n,
    created_at: row.created_at.toISOString(),
    id_base: idBase,
    duplicate_since: duplicateSince?.toISOString() ?? null,
  }));
  const columns = sql.unsafe(WRITTEN_COLUMNS);
  const rows = await sql<(WrittenPostRow & { n: number; outcome: "inserted" | "existing" | "duplicate" })[]>`
    with input as (
      select * from jsonb_to_recordset(${sql.json(input as never)}::jsonb)
               as i (n int, author_id text, kind text, text text, media_keys jsonb, reply_to_id text, reply_to_user_id text,
                     quoted_id text, reposted_id text, conversation_id text, is_thread_continuation boolean, mentioned_ids jsonb,
                     article_id text, article_title text, client_token text, created_at timestamptz, id_base bigint,
                     duplicate_since timestamptz)
    ), existing as (
      select distinct on (i.n) i.n, p.* from input i
        join network_posts p on p.author_id = i.author_id and p.client_token = i.client_token and p.client_token is not null
                            and p.deleted_at is null
    ), duplicate as (
      select distinct on (i.n) i.n, p.* from input i
        join network_posts p on p.author_id = i.author_id and p.text = i.text and p.created_at >= i.duplicate_since
                            and p.deleted_at is null and p.kind <> 'repost'
       where not exists (select 1 from existing e where e.n = i.n)
       order by i.n, p.created_at desc
    ), fresh as (
      select i.*, nextval('network_write_seq') as seq from input i
       where not exists (select 1 from existing e where e.n = i.n) and not exists (select 1 from duplicate d where d.n = i.n)
    ), inserted as (
      insert into network_posts (${columns})
      select f.seq, (f.id_base + f.seq)::text, f.author_id, f.kind, f.text, array(select jsonb_array_elements_text(f.media_keys)),
             f.reply_to_id, f.reply_to_user_id, f.quoted_id, f.reposted_id, coalesce(f.conversation_id, (f.id_base + f.seq)::text),
             f.is_thread_continuation, array(select jsonb_array_elements_text(f.mentioned_ids)), f.article_id, f.article_title,
             f.client_token, f.created_at, null
        from fresh f
      on conflict do nothing
      returning ${columns}
    )
    select f.n, 'inserted' as outcome, ins.* from inserted ins join fresh f on f.seq = ins.seq
    union all select n, 'existing', ${columns} from existing
    union all select n, 'duplicate', ${columns} from duplicate`;
  const byInput = new Map(rows.map(({ n, outcome, ...row }) => [n, { outcome, row }]));
  return posts.map((_, n): WrittenPublication => {
    const found = byInput.get(n);
    if (!found) return { outcome: "raced" };
    return found.outcome === "duplicate" ? { outcome: "duplicate" } : { outcome: found.outcome, row: found.row };
  });
}

/** A written post by sequence number (deleted ones included). */
export async function writtenPostBySeq(sql: Queryable, seq: number): Promise<WrittenPostRow | undefined> {
  const [row] = await sql<WrittenPostRow[]>`select * from network_posts where seq = ${seq}`;
  return row;
}

/** The live post `authorId` published with `token`. */
export async function writtenPostByToken(sql: Queryable, authorId: string, token: string): Promise<WrittenPostRow | undefined> {
  const [row] = await sql<WrittenPostRow[]>`
    select * from network_posts where author_id = ${authorId} and client_token = ${token} and deleted_at is null`;
  return row;
}

/** The newest live post of `authorId` with exactly `text`, published at or after `since`. */
export async function writtenPostByText(sql: Queryable, authorId: string, text: string, since: Date): Promise<WrittenPostRow | undefined> {
  const [row] = await sql<WrittenPostRow[]>`
    select * from network_posts
     where author_id = ${authorId} and text = ${text} and created_at >= ${since} and deleted_at is null and kind <> 'repost'
     order by created_at desc limit 1`;
  return row;
}

/** The author's live repost of `postId`. */
export async function liveRepost(sql: Queryable, authorId: string, postId: string): Promise<WrittenPostRow | undefined> {
  const [row] = await sql<WrittenPostRow[]>`
    select * from network_posts where author_id = ${authorId} and reposted_id = ${postId} and kind = 'repost' and deleted_at is null`;
  return row;
}

/**
 * Live posts of `authorIds` of the given kinds in [sinceMs, nowMs], newest first,
 * strictly after the keyset position `before`. Post ids all have 19 digits, so text
 * order is numeric order.
 */
export async function writtenByAuthors(
  sql: Queryable,
  authorIds: string[],
  window: { sinceMs: number; nowMs: number; before: { ms: number; id: string }; limit: number; kinds: WrittenPostRow["kind"][] },
): Promise<WrittenPostRow[]> {
  const before = new Date(window.before.ms);
  return sql<WrittenPostRow[]>`
    select * from network_posts
     where author_id = any(${authorIds}) and deleted_at is null and kind = any(${window.kinds})
       and created_at >= ${new Date(window.sinceMs)} and created_at <= ${new Date(window.nowMs)}
       and (created_at < ${before} or (created_at = ${before} and post_id < ${window.before.id}))
     order by created_at desc, post_id desc limit ${window.limit}`;
}

/** Live replies (thread continuations included), quotes or reposts (by `column`) of `postId` published by `nowMs`, oldest first. */
export async function writtenTargeting(
  sql: Queryable,
  column: "reply_to_id" | "quoted_id" | "reposted_id",
  postId: string,
  nowMs: number,
): Promise<WrittenPostRow[]> {
  // A reply that also quotes counts as a reply (X lists it among replies, not quotes).
  return sql<WrittenPostRow[]>`
    select * from network_posts
     where ${sql(column)} = ${postId} and deleted_at is null and created_at <= ${new Date(nowMs)}
       and (${column !== "quoted_id"} or reply_to_id is null)
     order by created_at, post_id`;
}

/** Written replies, quotes and reposts per target among `ids`, counted as of `nowMs`. */
export async function writtenEngagementCounts(
  sql: Queryable,
  ids: string[],
  nowMs: number,
): Promise<Map<string, { replies: number; quotes: number; reposts: number }>> {
  const counts = new Map<string, { replies: number; quotes: number; reposts: number }>();
  if (ids.length === 0) return counts;
  const rows = await sql<{ target: string; replies: number; quotes: number; reposts: number }[]>`
    select coalesce(reply_to_id, quoted_id, reposted_id) as target,
           count(*) filter (where reply_to_id is not null)::int as replies,
           count(*) filter (where kind = 'quote' and reply_to_id is null)::int as quotes,
           count(*) filter (where kind = 'repost')::int as reposts
      from network_posts
     where deleted_at is null and created_at <= ${new Date(nowMs)}
       and (reply_to_id = any(${ids}) or quoted_id = any(${ids}) or reposted_id = any(${ids}))
     group by 1`;
  for (const row of rows) counts.set(row.target, { replies: row.replies, quotes: row.quotes, reposts: row.reposts });
  return counts;
}

/** Live posts by others that answer or name `userId`, in [sinceMs, untilMs). */
export async function writtenMentioning(sql: Queryable, userId: string, sinceMs: number, untilMs: number): Promise<WrittenPostRow[]> {
  return sql<WrittenPostRow[]>`
    select * from network_posts
     where deleted_at is null and kind <> 'repost' and author_id <> ${userId}
       and (reply_to_user_id = ${userId} or mentioned_ids @> array[${userId}]::text[])
       and created_at >= ${new Date(sinceMs)} and created_at < ${new Date(untilMs)}`;
}

/** Live posts of `authorId` in [sinceMs, untilMs) (any kind), for the engagement they drew. */
export async function writtenInRange(sql: Queryable, authorId: string, sinceMs: number, untilMs: number): Promise<WrittenPostRow[]> {
  return sql<WrittenPostRow[]>`
    select * from network_posts
     where author_id = ${authorId} and deleted_at is null and created_at >= ${new Date(sinceMs)} and created_at < ${new Date(untilMs)}`;
}

/** Live posts, replies and quotes of anyone in [sinceMs, untilMs), for search. */
export async function writtenForSearch(sql: Queryable, sinceMs: number, untilMs: number): Promise<WrittenPostRow[]> {
  return sql<WrittenPostRow[]>`
    select * from network_posts
     where deleted_at is null and kind <> 'repost' and created_at >= ${new Date(sinceMs)} and created_at < ${new Date(untilMs)}`;
}

/** Marks a written post deleted (no-op when it already is). */
export async function deleteWrittenPost(sql: Queryable, seq: number, at: Date): Promise<void> {
  await sql`update network_posts set deleted_at = ${at} where seq = ${seq} and deleted_at is null`;
}

/** Records that the author deleted a generated post. */
export async function deleteGeneratedPost(sql: Queryable, postId: string, authorId: string, at: Date): Promise<void> {
  await sql`insert into network_deleted_posts (post_id, author_id, deleted_at) values (${postId}, ${authorId}, ${at})
            on conflict (post_id) do nothing`;
}

/** Every deleted generated post (few: only Threadline's users delete, and only their own). */
export async function deletedPostIds(sql: Queryable): Promise<Set<string>> {
  const rows = await sql<{ post_id: string }[]>`select post_id from network_deleted_posts`;
  return new Set(rows.map((row) => row.post_id));
}

/** Which of `ids` name deleted generated posts. */
export async function deletedAmong(sql: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ post_id: string }[]>`select post_id from network_deleted_posts where post_id = any(${ids})`;
  return new Set(rows.map((row) => row.post_id));
}

/** The article `authorId` started with `token`. */
export async function articleByToken(sql: Queryable, authorId: string, token: string): Promise<ArticleRow | undefined> {
  const [row] = await sql<ArticleRow[]>`select * from network_articles where author_id = ${authorId} and client_token = ${token}`;
  return row;
}

/** Article drafts created and articles published by `authorId` since `since`. */
export async function articleCountsSince(sql: Queryable, authorId: string, since: Date): Promise<{ drafts: number; published: number }> {
  const [row] = await sql<{ drafts: number; published: number }[]>`
    select count(*) filter (where created_at >= ${since})::int as drafts,
           count(*) filter (where published_at >= ${since})::int as published
      from network_articles where author_id = ${authorId}`;
  return row;
}

/** Inserts an article draft. */
export async function insertArticleDraft(sql: Queryable, row: Omit<ArticleRow, "status" | "post_id" | "published_at">): Promise<ArticleRow> {
  const [inserted] = await sql<ArticleRow[]>`
    insert into network_articles (seq, article_id, author_id, title, markdown, cover_url, status, client_token, created_at)
    values (${row.seq}, ${row.article_id}, ${row.author_id}, ${row.title}, ${row.markdown}, ${row.cover_url}, 'draft',
            ${row.client_token}, ${row.created_at})
    returning *`;
  return inserted;
}

/** Marks an article published by `postId`. */
export async function markArticlePublished(sql: Queryable, seq: number, postId: string, at: Date): Promise<ArticleRow> {
  const [row] = await sql<ArticleRow[]>`
    update network_articles set status = 'published', post_id = ${postId}, published_at = ${at} where seq = ${seq} returning *`;
  return row;
}

/** Inserts a DM; undefined when the sender already used its token. */
export async function insertDm(sql: Queryable, row: DmRow): Promise<DmRow | undefined> {
  const [inserted] = await sql<DmRow[]>`
    insert into network_dms (seq, dm_id, sender_id, recipient_id, text, client_token, created_at)
    values (${row.seq}, ${row.dm_id}, ${row.sender_id}, ${row.recipient_id}, ${row.text}, ${row.client_token}, ${row.created_at})
    on conflict do nothing returning *`;
  return inserted;
}

/** The DM `senderId` sent with `token`. */
export async function dmByToken(sql: Queryable, senderId: string, token: string): Promise<DmRow | undefined> {
  const [row] = await sql<DmRow[]>`select * from network_dms where sender_id = ${senderId} and client_token = ${token}`;
  return row;
}

/** DMs `userId` sent or received, newest first, after the keyset position. */
export async function dmsOfUser(sql: Queryable, userId: string, before: { ms: number; id: string }, limit: number): Promise<DmRow[]> {
  const at = new Date(before.ms);
  return sql<DmRow[]>`
    select * from network_dms
     where (sender_id = ${userId} or recipient_id = ${userId})
       and (created_at < ${at} or (created_at = ${at} and dm_id < ${before.id}))
     order by created_at desc, dm_id desc limit ${limit}`;
}

/** Threadline accounts among `ids`. */
export async function guestAccountsByIds(sql: Queryable, ids: string[]): Promise<GuestAccountRow[]> {
  if (ids.length === 0) return [];
  return sql<GuestAccountRow[]>`
    select id, username, name, avatar_url, x_premium, created_at from accounts where id = any(${ids})`;
}

/** Threadline accounts with these handles (lower-cased). */
export async function guestAccountsByUsernames(sql: Queryable, usernames: string[]): Promise<GuestAccountRow[]> {
  if (usernames.length === 0) return [];
  return sql<GuestAccountRow[]>`
    select distinct on (lower(username)) id, username, name, avatar_url, x_premium, created_at
      from accounts where lower(username) = any(${usernames}) order by lower(username), created_at`;
}

/** Takes the transaction-level lock `key` (one article publisher per author at a time). */
export async function lockAuthorArticles(sql: Queryable, key: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${key}::bigint)`;
}
