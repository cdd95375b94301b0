/**
 * SQL of the audience sync (tables `audience_sync_state`, `audience_members`,
 * `audience_reposts`, `audience_repost_reads`; migrations 0023, 0035). Contacts' profiles are
 * written through core/people/contact_profiles_queries.ts, engagement counts through
 * `contacts_queries.ts`.
 */
import type { Queryable } from "../db/sql.ts";

/** One of the lists the audience sync keeps per account. */
export type AudienceSyncList = "followers" | "following" | "engagers";

/** One of the two walked lists. */
export type FollowList = "followers" | "following";

/** Where the sync of one list of one account stands (a row of `audience_sync_state`). */
export interface AudienceSyncState {
  account_id: string;
  kind: AudienceSyncList;
  status: "pending" | "running" | "complete" | "paused";
  generation: number;
  walk_cursor: string | null;
  walk_started_at: Date | null;
  walk_seen: number;
  synced_count: number;
  is_capped: boolean;
  last_error: string | null;
  last_complete_at: Date | null;
  budget_day: string | null;
  pages_today: number;
  last_synced_at: Date | null;
  next_sync_at: Date | null;
  /** The engagers: the content's `engagement_version` their last run counted from (0 for the other lists). */
  counted_engagement_version: number;
}

/** A row of `audience_members`. */
export interface AudienceMemberRow {
  account_id: string;
  kind: FollowList;
  x_user_id: string;
  walk_started_at: Date;
  walk_index: number;
  generation: number;
}

/** A row of `audience_reposts`. */
export interface AudienceRepostRow {
  account_id: string;
  x_post_id: string;
  x_user_id: string;
  engaged_at: Date;
}

/** A row of `audience_repost_reads`. */
export interface RepostReadRow {
  account_id: string;
  x_post_id: string;
  reposts_count: number;
  read_at: Date;
}

/** An own post whose reposters are due: never read, or its counter moved since. */
export interface RepostDuePost {
  x_post_id: string;
  reposts: number;
  posted_at: Date;
  /** When its reposters were last read (null: never). */
  read_at: Date | null;
}

const BATCH = 1000;

/** The sync states of `accountId`, by list (lists never synced are absent). */
export async function audienceSyncStates(sql: Queryable, accountId: string): Promise<Map<AudienceSyncList, AudienceSyncState>> {
  const rows = await sql<AudienceSyncState[]>`
    select account_id, kind, status, generation, walk_cursor, walk_started_at, walk_seen, synced_count, is_capped,
           last_error, last_complete_at, to_char(budget_day, 'YYYY-MM-DD') as budget_day, pages_today,
           last_synced_at, next_sync_at, counted_engagement_version
      from audience_sync_state where account_id = ${accountId}`;
  return new Map(rows.map((row) => [row.kind, row]));
}

/** Writes a list's state (a run's last write, in its transaction). */
export async function saveAudienceSyncState(sql: Queryable, state: AudienceSyncState): Promise<void> {
  await sql`
    insert into audience_sync_state ${sql(state as never)}
    on conflict (account_id, kind) do update set
      status = excluded.status, generation = excluded.generation, walk_cursor = excluded.walk_cursor,
      walk_started_at = excluded.walk_started_at, walk_seen = excluded.walk_seen, synced_count = excluded.synced_count,
      is_capped = excluded.is_capped, last_error = excluded.last_error, last_complete_at = excluded.last_complete_at,
      budget_day = excluded.budget_day, pages_today = excluded.pages_today, last_synced_at = excluded.last_synced_at,
      next_sync_at = excluded.next_sync_at, counted_engagement_version = excluded.counted_engagement_version`;
}

/**
 * Marks a list paused after a failed network call: only the status, the error and the
 * retry time change, so the walk resumes where the last good run left it.
 */
export async function pauseAudienceSync(sql: Queryable, accountId: string, kind: AudienceSyncList, error: string, retryAt: Date): Promise<void> {
  await sql`
    insert into audience_sync_state (account_id, kind, status, last_error, next_sync_at)
    values (${accountId}, ${kind}, 'paused', ${error}, ${retryAt})
    on conflict (account_id, kind) do update set status = 'paused', last_error = excluded.last_error, next_sync_at = excluded.next_sync_at`;
}

/**
 * The content sync's `engagement_version` of `accountId` (0 before its first sync): bumped by
 * each of its commits that stored new replies or reposts (core/content/content_sync.ts).
 */
export async function contentEngagementVersion(sql: Queryable, accountId: string): Promise<number> {
  const [row] = await sql<{ engagement_version: number }[]>`select engagement_version from content_sync_state where account_id = ${accountId}`;
  return row?.engagement_version ?? 0;
}

/** The audience backfill plan of the user owning `accountId` (the owner of its main account). */
export async function ownerPlanOf(sql: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await sql<{ plan: string }[]>`
    select u.plan from accounts a
      join accounts m on m.id = coalesce(a.main_account_id, a.id)
      join users u on u.id = m.user_id
     where a.id = ${accountId}`;
  return row?.plan;
}

/**
 * Inserts members a walk found. A person already listed keeps where they were first seen
 * (`walk_started_at`, `walk_index`) and only takes the walk's generation.
 */
export async function upsertAudienceMembers(sql: Queryable, rows: readonly AudienceMemberRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await sql`
      insert into audience_members ${sql(rows.slice(start, start + BATCH) as never)}
      on conflict (account_id, kind, x_user_id) do update set generation = excluded.generation`;
  }
}

/** Inserts newcomers only: people already listed are left exactly as they are. */
export async function insertNewAudienceMembers(sql: Queryable, rows: readonly AudienceMemberRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into audience_members ${sql(rows as never)} on conflict (account_id, kind, x_user_id) do nothing`;
}

/** Removes the members a finished walk did not see again (unfollows); answers how many. */
export async function deleteOlderGenerations(sql: Queryable, accountId: string, kind: FollowList, generation: number): Promise<number> {
  const rows = await sql`delete from audience_members where account_id = ${accountId} and kind = ${kind} and generation < ${generation}`;
  return rows.count;
}

/** How many members a list holds. */
export async function audienceMemberCount(sql: Queryable, accountId: string, kind: FollowList): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from audience_members where account_id = ${accountId} and kind = ${kind}`;
  return row.count;
}

/** How many of the account's contacts engaged in the window as last counted. */
export async function engagedContactCount(sql: Queryable, accountId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from contacts where account_id = ${accountId} and engaged_count > 0`;
  return row.count;
}

/** People who replied to the account since `since` and are not yet its contacts. */
export async function repliersWithoutContact(sql: Queryable, accountId: string, since: Date): Promise<string[]> {
  const rows = await sql<{ x_user_id: string }[]>`
    select distinct r.replier_x_user_id as x_user_id
      from received_replies r
     where r.account_id = ${accountId} and r.posted_at >= ${since}
       and not exists (select 1 from contacts c where c.account_id = ${accountId} and c.x_user_id = r.replier_x_user_id)`;
  return rows.map((row) => row.x_user_id);
}

/**
 * The account's posts since `since` whose reposters are due: reposted, and never read or
 * read when the counter was different. Newest first.
 */
export async function postsDueForRepostRead(sql: Queryable, accountId: string, since: Date): Promise<RepostDuePost[]> {
  return sql<RepostDuePost[]>`
    select o.x_post_id, o.reposts, o.posted_at, r.read_at
      from own_posts o
      left join audience_repost_reads r on r.account_id = o.account_id and r.x_post_id = o.x_post_id
     where o.account_id = ${accountId} and o.category = 'post' and o.posted_at >= ${since} and o.reposts > 0
       and (r.read_at is null or r.reposts_count <> o.reposts)
     order by o.posted_at desc, o.x_post_id desc`;
}

/** Records reposts; one already recorded keeps its earlier `engaged_at`. */
export async function insertAudienceReposts(sql: Queryable, rows: readonly AudienceRepostRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await sql`
      insert into audience_reposts ${sql(rows.slice(start, start + BATCH) as never)}
      on conflict (account_id, x_post_id, x_user_id) do nothing`;
  }
}

/** Records when each post's reposters were read and its counter then. */
export async function saveRepostReads(sql: Queryable, rows: readonly RepostReadRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await sql`
      insert into audience_repost_reads ${sql(rows.slice(start, start + BATCH) as never)}
      on conflict (account_id, x_post_id) do update set reposts_count = excluded.reposts_count, read_at = excluded.read_at`;
  }
}

/** Drops reposts and reads older than the window (they no longer count, and nothing re-reads them). */
export async function pruneAudienceReposts(sql: Queryable, accountId: string, since: Date): Promise<void> {
  await sql`delete from audience_reposts where account_id = ${accountId} and engaged_at < ${since}`;
  await sql`
    delete from audience_repost_reads r
     where r.account_id = ${accountId}
       and not exists (select 1 from own_posts o where o.account_id = r.account_id and o.x_post_id = r.x_post_id and o.posted_at >= ${since})`;
}

/**
 * Accounts whose audience sync is due (never synced first), oldest due first. An account
 * is due when any of its lists is: `isListDue` (audience_sync_rhythm.ts) in SQL, the
 * engagers also when the content stored engagement since they counted.
 */
export async function accountsDueForAudienceSync(sql: Queryable, now: Date, limit: number, pagesPerDay: number): Promise<string[]> {
  const today = now.toISOString().slice(0, 10);
  const rows = await sql<{ id: string }[]>`
    select a.id from accounts a
      left join (select account_id, min(next_sync_at) as next_sync_at from audience_sync_state group by account_id) s
        on s.account_id = a.id
      left join audience_sync_state e on e.account_id = a.id and e.kind = 'engagers'
      left join content_sync_state c on c.account_id = a.id
     where s.next_sync_at is null or s.next_sync_at <= ${now}
        or (c.engagement_version > coalesce(e.counted_engagement_version, 0) and e.status is distinct from 'paused'
            and (e.budget_day is distinct from ${today}::date or e.pages_today < ${pagesPerDay}))
     order by s.next_sync_at nulls first, a.id
     limit ${limit}`;
  return rows.map((row) => row.id);
}
