/**
 * SQL of the publisher (migrations 0010 and 0012): the claim on a post, the durable
 * outcome of each part (`publish_parts`), and the post's final state. Every write that
 * follows the claim checks, in the same statement, that the caller still holds it and
 * that the post is still the version being published, and renews the lease.
 */
import type { Queryable } from "../db/sql.ts";
import type { StoredPart } from "./scheduled_posts_queries.ts";

/** A part's durable outcome for one publish version. */
export interface PublishPartRow {
  part_index: number;
  state: "publishing" | "published";
  token: string;
  x_post_id: string | null;
}

/** A post as the publisher claimed it, with what is already recorded for its parts. */
export interface ClaimedPostRow {
  id: number;
  account_id: string;
  parts: StoredPart[];
  quota_period_start: Date | null;
  /** When the post was due (publisher lateness is measured from it). */
  scheduled_for: Date;
  /** Publication attempts so far, this one included. */
  publish_attempts: number;
  /** What earlier attempts recorded, part by part. */
  recorded: PublishPartRow[];
  /** The claim itself recorded part 0 `publishing` (nothing was recorded for it before). */
  first_recorded: boolean;
}

/** Why a post was not claimed. */
export interface PostPublishStateRow {
  status: "draft" | "scheduled" | "sent" | "error";
  publish_version: number;
  scheduled_for: Date | null;
  x_post_ids: string[] | null;
  error: string | null;
  /** Another holder's lease has not passed yet. */
  claimed: boolean;
}

/** Who claims, for how long. */
export interface Holder {
  postId: number;
  version: number;
  /** Random per publish call: two calls of one process are two holders. */
  holder: string;
  leaseSeconds: number;
}

/**
 * Claims post `postId` at `version` for `holder` when it is scheduled, due by `now`, and
 * no other holder's lease is running; counts the attempt, and records part 0 `publishing`
 * with `firstToken` unless an earlier attempt recorded it. Undefined when not claimed.
 */
export async function claimPost(sql: Queryable, claim: Holder & { now: Date; firstToken: string }): Promise<ClaimedPostRow | undefined> {
  /*
   * One statement: the row lock of the UPDATE serialises concurrent claimers, and each
   * re-checks the lease on the row as the winner left it (READ COMMITTED re-evaluates the
   * WHERE on the updated row), so exactly one of them gets it. The lease runs on the
   * database's clock, the one every process shares; `now` (the app's Clock) only says
   * whether the post is due. The same statement reads what earlier attempts recorded
   * (a CTE's writes are invisible to the rest of its statement, so `recorded` is the
   * state before this claim) and commits part 0 `publishing`, the first step of a fresh
   * publication: two round trips fewer per post (bench: 10,000 posts due in one minute).
   */
  const [row] = await sql<ClaimedPostRow[]>`
    with claimed as (
      update scheduled_posts p
         set publish_claimed_by = ${claim.holder},
             publish_claimed_until = now() + ${claim.leaseSeconds} * interval '1 second',
             publish_attempts = p.publish_attempts + 1
       where p.id = ${claim.postId} and p.publish_version = ${claim.version} and p.status = 'scheduled'
         and p.scheduled_for <= ${claim.now}
         and (p.publish_claimed_until is null or p.publish_claimed_until < now())
      returning p.id, p.account_id, p.parts, p.quota_period_start, p.publish_attempts, p.scheduled_for
    ), first as (
      insert into publish_parts (post_id, publish_version, part_index, state, token, started_at)
      select id, ${claim.version}, 0, 'publishing', ${claim.firstToken}, ${claim.now} from claimed
       where jsonb_array_length(parts) > 0
      on conflict (post_id, publish_version, part_index) do nothing
      returning part_index
    )
    select c.*, exists (select 1 from first) as first_recorded,
           coalesce((select json_agg(json_build_object('part_index', pp.part_index, 'state', pp.state, 'token', pp.token,
                                                       'x_post_id', pp.x_post_id) order by pp.part_index)
                       from publish_parts pp
                      where pp.post_id = c.id and pp.publish_version = ${claim.version}), '[]'::json) as recorded
      from claimed c`;
  return row;
}

/** Where post `postId` stands (after a claim was refused), or undefined when it is gone. */
export async function postPublishState(sql: Queryable, postId: number): Promise<PostPublishStateRow | undefined> {
  const [row] = await sql<PostPublishStateRow[]>`
    select status, publish_version, scheduled_for, x_post_ids, error,
           coalesce(publish_claimed_until >= now(), false) as claimed
      from scheduled_posts where id = ${postId}`;
  return row;
}

/**
 * Records (and commits, being one statement outside any transaction) that part `index` is
 * about to be published with `token`, and renews the lease. False when the holder lost the
 * claim or the post changed (retimed, edited, deleted): then nothing is recorded and the
 * network must not be asked.
 */
export async function recordPartPublishing(sql: Queryable, claim: Holder, part: { index: number; token: string; at: Date }): Promise<boolean> {
  // The UPDATE takes the post's row lock, so an edit that locks the post and then checks
  // `publicationStarted` either sees this row or bumps the version before it is written.
  const rows = await sql`
    with held as (
      update scheduled_posts set publish_claimed_until = now() + ${claim.leaseSeconds} * interval '1 second'
       where id = ${claim.postId} and publish_claimed_by = ${claim.holder}
         and publish_version = ${claim.version} and status = 'scheduled'
      returning id
    )
    insert into publish_parts (post_id, publish_version, part_index, state, token, started_at)
    select id, ${claim.version}, ${part.index}, 'publishing', ${part.token}, ${part.at} from held
    on conflict (post_id, publish_version, part_index) do nothing
    returning part_index`;
  return rows.length === 1;
}

/**
 * Records the network's id of part `index` and renews the lease; with `sent` (the last
 * part) marks the post sent in the same statement instead (see `markPostSent`). The
 * outcome is a fact and is recorded whoever holds the claim; answers whether the caller
 * still held it.
 */
export async function recordPartPublished(
  sql: Queryable,
  claim: Holder,
  part: { index: number; xPostId: string; at: Date },
  sent?: { xPostIds: readonly string[]; at: Date },
): Promise<boolean> {
  const changes = sent
    ? sentColumns(sql, sent)
    : sql`publish_claimed_until = now() + ${claim.leaseSeconds} * interval '1 second'`;
  // Data-modifying CTEs run to completion whether or not the outer query reads them.
  const [row] = await sql<{ held: boolean }[]>`
    with part as (
      update publish_parts set state = 'published', x_post_id = ${part.xPostId}, published_at = ${part.at}
       where post_id = ${claim.postId} and publish_version = ${claim.version} and part_index = ${part.index}
         and state = 'publishing'
      returning 1
    ), held as (
      update scheduled_posts set ${changes}
       where id = ${claim.postId} and publish_claimed_by = ${claim.holder}
         and publish_version = ${claim.version} and status = 'scheduled'
      returning 1
    )
    select exists (select 1 from held) as held`;
  return row.held;
}

function sentColumns(sql: Queryable, sent: { xPostIds: readonly string[]; at: Date }) {
  return sql`status = 'sent', sent_at = ${sent.at}, x_post_ids = ${sql.array(sent.xPostIds as string[])}::text[], error = null,
             publish_claimed_by = null, publish_claimed_until = null, updated_at = ${sent.at}`;
}

/** Marks the post `sent` with its parts' ids and lets go of the claim; false when the holder no longer holds it. */
export async function markPostSent(sql: Queryable, claim: Holder, sent: { xPostIds: readonly string[]; at: Date }): Promise<boolean> {
  const rows = await sql`
    update scheduled_posts set ${sentColumns(sql, sent)}
     where id = ${claim.postId} and publish_claimed_by = ${claim.holder}
       and publish_version = ${claim.version} and status = 'scheduled'
    returning id`;
  return rows.length === 1;
}

/**
 * Locks the post for its failure (inside the caller's transaction) when the holder still
 * holds it at the version; answers what the refund needs, or undefined.
 */
export async function lockHeldPost(sql: Queryable, claim: Holder): Promise<{ account_id: string; quota_period_start: Date | null } | undefined> {
  const [row] = await sql<{ account_id: string; quota_period_start: Date | null }[]>`
    select account_id, quota_period_start from scheduled_posts
     where id = ${claim.postId} and publish_claimed_by = ${claim.holder}
       and publish_version = ${claim.version} and status = 'scheduled'
       for update`;
  return row;
}

/** Marks a locked post `error` with `reason`, forgets its quota charge and lets go of the claim. */
export async function markPostFailed(sql: Queryable, postId: number, failure: { reason: string; at: Date }): Promise<void> {
  await sql`
    update scheduled_posts
       set status = 'error', error = ${failure.reason}, quota_period_start = null,
           publish_claimed_by = null, publish_claimed_until = null, updated_at = ${failure.at}
     where id = ${postId}`;
}

/** Lets go of the claim (after a failure that will be retried), so the retry need not wait for the lease. */
export async function releaseClaim(sql: Queryable, claim: Holder): Promise<void> {
  await sql`
    update scheduled_posts set publish_claimed_by = null, publish_claimed_until = null
     where id = ${claim.postId} and publish_claimed_by = ${claim.holder}`;
}

/** The prefix of the post claims a job worker takes (`publishFromJob`'s holder). */
export function claimHolderPrefix(workerId: string): string {
  return `${workerId}|`;
}

/**
 * Releases the post claims of job worker `workerId` (graceful shutdown, after its handlers
 * were stopped): another process may claim the posts at once instead of waiting out the
 * lease. Safe with a handler still running: each of its writes re-checks the claim and
 * fails, and a part it may have published is found by its token before any retry.
 */
export async function releasePostClaimsOf(sql: Queryable, workerId: string): Promise<number> {
  const rows = await sql`
    update scheduled_posts set publish_claimed_by = null, publish_claimed_until = null
     where publish_claimed_until is not null and starts_with(publish_claimed_by, ${claimHolderPrefix(workerId)})
    returning id`;
  return rows.length;
}
