/**
 * SQL of the post publisher (migrations 0010 and 0012): the claim on a post, the durable
 * outcome of each part (`publish_parts`), and the post's final state. The lease is the
 * shared one (core/publishing/lease_queries.ts); every write that follows the claim checks,
 * in the same statement, that the caller still holds it and that the post is still the
 * version being published, and renews the lease.
 */
import type { Queryable } from "../db/sql.ts";
import type { Lease } from "../leases/lease.ts";
import { type HeldRow, publicationLease } from "../publishing/lease_queries.ts";
import type { StoredPart } from "./scheduled_posts_queries.ts";
import { perTurn } from "../db/turn_batches.ts";

/** A part's durable outcome for one publish version. */
export interface PublishPartRow {
  part_index: number;
  state: "publishing" | "published";
  token: string;
  x_post_id: string | null;
}

/** A part of an earlier publish version of the post: what it said and where it got. */
export interface EarlierPartRow extends PublishPartRow {
  /** The part as it was published (null for rows recorded before migration 0031). */
  content: StoredPart | null;
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
  /**
   * Per part index, the latest row of an earlier version (a published one first): a post
   * that failed part-way and was scheduled again continues after them (carried_parts.ts).
   */
  earlier: EarlierPartRow[];
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

/** Who claims which post version, for how long. */
export interface Holder extends Lease {
  postId: number;
  version: number;
}

/** The post as the shared lease sees it: held by `claim` at its version, still scheduled. */
export function heldPost(sql: Queryable, claim: Holder): HeldRow {
  return { table: "scheduled_posts", id: claim.postId, lease: claim, scope: sql`publish_version = ${claim.version} and status = 'scheduled'` };
}

/** What a claim asks for: the post version, the holder, the app's `now` and part 0's token. */
export type PostClaim = Holder & { now: Date; firstToken: string };

/**
 * Claims post `postId` at `version` for `holder` when it is scheduled, due by `now`, and
 * no other holder's lease is running; counts the attempt, and records part 0 `publishing`
 * with `firstToken` unless an earlier attempt recorded it. Undefined when not claimed.
 * The claims made in one loop turn share one statement (`claimPosts`).
 */
export const claimPost: (sql: Queryable, claim: PostClaim) => Promise<ClaimedPostRow | undefined> = perTurn(claimPosts);

/** `claimPost` for many claims in one statement; answers each claim's row in order. */
export async function claimPosts(sql: Queryable, claims: readonly PostClaim[]): Promise<(ClaimedPostRow | undefined)[]> {
  /*
   * One statement: the row lock of the UPDATE serialises concurrent claimers, and each
   * re-checks the lease on the row as the winner left it (READ COMMITTED re-evaluates the
   * WHERE on the updated row), so exactly one of them gets it; two claims of one post in
   * one batch update it once, for one of their holders. The lease runs on the database's
   * clock, the one every process shares; `now` (the app's Clock) only says whether the post
   * is due. The same statement reads what earlier attempts recorded (a CTE's writes are
   * invisible to the rest of its statement, so `recorded` is the state before this claim)
   * and commits part 0 `publishing`, the first step of a fresh publication: two round trips
   * fewer per post, and one statement per burst (bench: 10,000 posts due in one minute).
   */
  const rows = await sql<(ClaimedPostRow & { holder: string })[]>`
    with input as (
      select * from unnest(${sql.array(claims.map((claim) => claim.postId))}::bigint[], ${sql.array(claims.map((claim) => claim.version))}::int[],
                           ${sql.array(claims.map((claim) => claim.holder))}::text[], ${sql.array(claims.map((claim) => claim.leaseSeconds))}::float8[],
                           ${sql.array(claims.map((claim) => claim.now.toISOString()))}::timestamptz[], ${sql.array(claims.map((claim) => claim.firstToken))}::text[])
               as i (id, version, holder, lease_seconds, due_by, first_token)
    ), claimed as (
      update scheduled_posts p
         set ${publicationLease.takeFrom(sql, "i")}
        from input i
       where p.id = i.id and p.publish_version = i.version and p.status = 'scheduled'
         and p.scheduled_for <= i.due_by
         and ${publicationLease.free(sql, "p")}
      returning p.id, p.account_id, p.parts, p.quota_period_start, p.publish_attempts, p.scheduled_for,
                p.publish_claimed_by as holder, i.version, i.first_token, i.due_by
    ), first as (
      insert into publish_parts (post_id, publish_version, part_index, state, token, started_at, content)
      select id, version, 0, 'publishing', first_token, due_by, parts -> 0 from claimed
       where jsonb_array_length(parts) > 0
      on conflict (post_id, publish_version, part_index) do nothing
      returning post_id
    )
    select c.id, c.account_id, c.parts, c.quota_period_start, c.publish_attempts, c.scheduled_for, c.holder,
           exists (select 1 from first f where f.post_id = c.id) as first_recorded,
           coalesce((select json_agg(json_build_object('part_index', pp.part_index, 'state', pp.state, 'token', pp.token,
                                                       'x_post_id', pp.x_post_id) order by pp.part_index)
                       from publish_parts pp
                      where pp.post_id = c.id and pp.publish_version = c.version), '[]'::json) as recorded,
           coalesce((select json_agg(json_build_object('part_index', e.part_index, 'state', e.state, 'token', e.token,
                                                       'x_post_id', e.x_post_id, 'content', e.content) order by e.part_index)
                       from (select distinct on (pp.part_index) pp.*
                               from publish_parts pp
                              where pp.post_id = c.id and pp.publish_version < c.version
                              order by pp.part_index, pp.state = 'published' desc, pp.publish_version desc) e), '[]'::json) as earlier
      from claimed c`;
  // Holders are random per call: the row a claim won carries its holder.
  const byHolder = new Map(rows.map(({ holder, ...row }) => [holder, row]));
  return claims.map((claim) => byHolder.get(claim.holder));
}

/** Where post `postId` stands (after a claim was refused), or undefined when it is gone. */
export async function postPublishState(sql: Queryable, postId: number): Promise<PostPublishStateRow | undefined> {
  const [row] = await sql<PostPublishStateRow[]>`
    select status, publish_version, scheduled_for, x_post_ids, error, ${publicationLease.running(sql)} as claimed
      from scheduled_posts where id = ${postId}`;
  return row;
}

/**
 * Records (and commits, being one statement outside any transaction) that part `index` is
 * about to be published with `token`, and renews the lease. False when the holder lost the
 * claim or the post changed (retimed, edited, deleted): then nothing is recorded and the
 * network must not be asked.
 */
export async function recordPartPublishing(
  sql: Queryable,
  claim: Holder,
  part: { index: number; token: string; at: Date; content: StoredPart },
): Promise<boolean> {
  // The UPDATE takes the post's row lock, so an edit that locks the post and then checks
  // `publicationStarted` either sees this row or bumps the version before it is written.
  const rows = await sql`
    with held as (
      update scheduled_posts set ${publicationLease.renew(sql, claim)}
       where id = ${claim.postId} and ${publicationLease.heldBy(sql, claim)}
         and publish_version = ${claim.version} and status = 'scheduled'
      returning id
    )
    insert into publish_parts (post_id, publish_version, part_index, state, token, started_at, content)
    select id, ${claim.version}, ${part.index}, 'publishing', ${part.token}, ${part.at}, ${sql.json(part.content as never)} from held
    on conflict (post_id, publish_version, part_index) do nothing
    returning part_index`;
  return rows.length === 1;
}

/**
 * Records the network's id of part `index` (not the last: `markPostsSent` records that one)
 * and renews the lease. The outcome is a fact and is recorded whoever holds the claim;
 * answers whether the caller still held it.
 */
export async function recordPartPublished(sql: Queryable, claim: Holder, part: { index: number; xPostId: string; at: Date }): Promise<boolean> {
  // Data-modifying CTEs run to completion whether or not the outer query reads them.
  const [row] = await sql<{ held: boolean }[]>`
    with part as (
      update publish_parts set state = 'published', x_post_id = ${part.xPostId}, published_at = ${part.at}
       where post_id = ${claim.postId} and publish_version = ${claim.version} and part_index = ${part.index}
         and state = 'publishing'
      returning 1
    ), held as (
      update scheduled_posts set ${publicationLease.renew(sql, claim)}
       where id = ${claim.postId} and ${publicationLease.heldBy(sql, claim)}
         and publish_version = ${claim.version} and status = 'scheduled'
      returning 1
    )
    select exists (select 1 from held) as held`;
  return row.held;
}

/** A post's last step: the ids of its parts, and the last part's record when this call published it. */
export interface SentPost {
  claim: Holder;
  /** The last part, still to be recorded `published` (absent when an earlier attempt recorded it). */
  part?: { index: number; xPostId: string };
  xPostIds: readonly string[];
  at: Date;
}

/**
 * Records each post's last part `published` (a fact, whoever holds the post) and marks
 * `sent`, with its parts' ids, each post its caller still holds at its version, letting go
 * of the claim: one statement for the lot. Answers the posts marked sent: id to holder.
 */
export async function markPostsSent(sql: Queryable, posts: readonly SentPost[]): Promise<Map<number, string>> {
  const input = posts.map((post) => ({
    id: post.claim.postId,
    version: post.claim.version,
    holder: post.claim.holder,
    part_index: post.part?.index ?? null,
    x_post_id: post.part?.xPostId ?? null,
    x_post_ids: post.xPostIds,
    at: post.at.toISOString(),
  }));
  const rows = await sql<{ id: number; holder: string }[]>`
    with input as (
      select * from jsonb_to_recordset(${sql.json(input as never)}::jsonb)
               as i (id bigint, version int, holder text, part_index int, x_post_id text, x_post_ids jsonb, at timestamptz)
    ), part as (
      update publish_parts pp set state = 'published', x_post_id = i.x_post_id, published_at = i.at
        from input i
       where i.part_index is not null and pp.post_id = i.id and pp.publish_version = i.version
         and pp.part_index = i.part_index and pp.state = 'publishing'
      returning 1
    )
    update scheduled_posts p
       set status = 'sent', sent_at = i.at, x_post_ids = array(select jsonb_array_elements_text(i.x_post_ids)), error = null,
           ${publicationLease.drop(sql)}, updated_at = i.at
      from input i
     where p.id = i.id and ${publicationLease.heldByFrom(sql, "i")} and p.publish_version = i.version and p.status = 'scheduled'
    returning p.id::int as id, i.holder`;
  return new Map(rows.map((row) => [row.id, row.holder]));
}

/** Marks a locked post `error` with `reason`, forgets its quota charge and lets go of the claim. */
export async function markPostFailed(sql: Queryable, postId: number, failure: { reason: string; at: Date }): Promise<void> {
  await sql`
    update scheduled_posts
       set status = 'error', error = ${failure.reason}, quota_period_start = null,
           ${publicationLease.drop(sql)}, updated_at = ${failure.at}
     where id = ${postId}`;
}

/**
 * Bumps the publish versions of the scheduled posts among `postIds` and enqueues a `kind`
 * job for each new version, due at its `scheduled_for` (or `runAt`).
 */
export async function bumpAndEnqueuePublications(
  sql: Queryable,
  postIds: readonly number[],
  options: { kind: string; runAt?: Date; maxAttempts: number },
): Promise<void> {
  // One statement however many posts (bulk retime moves up to 500): the versions are new,
  // so the unique keys never collide with a job already queued.
  await sql`
    with bumped as (
      update scheduled_posts set publish_version = publish_version + 1
       where id = any(${sql.array(postIds as number[])}::bigint[]) and status = 'scheduled'
      returning id, publish_version, scheduled_for
    )
    insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    select ${options.kind}, jsonb_build_object('postId', id, 'version', publish_version),
           coalesce(${options.runAt ?? null}::timestamptz, scheduled_for), ${options.maxAttempts},
           'publish:' || id || ':' || publish_version
      from bumped
    on conflict (unique_key) where unique_key is not null and status in ('queued', 'running') do nothing`;
}
