/**
 * SQL for durable jobs (migration 0002_jobs.sql): enqueue, claim, complete, fail, extend
 * a lease, sweep stale locks. Every function takes a `Queryable`, so enqueueing inside a
 * caller's transaction commits the job with the write that needs it, or not at all.
 */
import type postgres from "postgres";
import type { Queryable } from "../db/sql.ts";

/** Where a job is in its life. */
export type JobStatus = "queued" | "running" | "done" | "failed";

/** A row of `jobs`. */
export interface JobRow {
  id: number;
  kind: string;
  payload: unknown;
  run_at: Date;
  attempts: number;
  max_attempts: number;
  status: JobStatus;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  unique_key: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A job to enqueue. */
export interface NewJob {
  kind: string;
  /** Any JSON value; default `{}`. */
  payload?: unknown;
  /** Not claimed before this instant; default now. */
  runAt?: Date;
  /** At most one unfinished (queued or running) job per key: a second enqueue returns the first's id. */
  uniqueKey?: string;
  /** Attempts before the job ends `failed`; default 8. */
  maxAttempts?: number;
}

/** The longest retry delay, in seconds: `min(2^attempts s, 1 hour)`. */
const MAX_BACKOFF_SECONDS = 3600;

/** `last_error` keeps this many characters: enough for a stack, not a megabyte of payload. */
const MAX_ERROR_LENGTH = 4000;

/**
 * Enqueues a job and returns its id. With `uniqueKey`, when an unfinished job already holds
 * the key, nothing is inserted and that job's id is returned instead.
 */
export async function enqueueJob(sql: Queryable, job: NewJob): Promise<number> {
  const payload = sql.json((job.payload ?? {}) as postgres.JSONValue);
  const runAt = job.runAt ?? null;
  const maxAttempts = job.maxAttempts ?? 8;
  if (job.uniqueKey === undefined) {
    const [row] = await sql<{ id: number }[]>`
      insert into jobs (kind, payload, run_at, max_attempts)
      values (${job.kind}, ${payload}, coalesce(${runAt}::timestamptz, now()), ${maxAttempts})
      returning id`;
    return row.id;
  }
  // The holder of the key may finish between our insert and our select; then the key is
  // free and the next round inserts. Three rounds only fail under a pathological race.
  for (let round = 0; round < 3; round++) {
    const [inserted] = await sql<{ id: number }[]>`
      insert into jobs (kind, payload, run_at, max_attempts, unique_key)
      values (${job.kind}, ${payload}, coalesce(${runAt}::timestamptz, now()), ${maxAttempts}, ${job.uniqueKey})
      on conflict (unique_key) where unique_key is not null and status in ('queued', 'running') do nothing
      returning id`;
    if (inserted) return inserted.id;
    const [existing] = await sql<{ id: number }[]>`
      select id from jobs where unique_key = ${job.uniqueKey} and status in ('queued', 'running')`;
    if (existing) return existing.id;
  }
  throw new Error(`Cannot enqueue job "${job.kind}" with unique key "${job.uniqueKey}": its holder kept changing`);
}

/**
 * Enqueues a job unless a job with `uniqueKey` exists in any status, finished included, and
 * answers whether it inserted. The periodic scheduler keys a run by its time slot, so N
 * processes enqueue each slot's run once, and a run that already finished is not repeated.
 */
export async function enqueueJobOnce(sql: Queryable, job: NewJob & { uniqueKey: string }): Promise<boolean> {
  const rows = await sql`
    insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    select ${job.kind}, ${sql.json((job.payload ?? {}) as postgres.JSONValue)}, coalesce(${job.runAt ?? null}::timestamptz, now()),
           ${job.maxAttempts ?? 8}, ${job.uniqueKey}
     where not exists (select 1 from jobs where unique_key = ${job.uniqueKey})
    on conflict (unique_key) where unique_key is not null and status in ('queued', 'running') do nothing
    returning id`;
  return rows.length === 1;
}

/** What a job runner claims. */
export interface ClaimOptions {
  /** Recorded in `locked_by`; completion and failure only touch jobs this runner holds. */
  runnerId: string;
  /** Only these kinds (a runner claims only what it has handlers for); default all. */
  kinds?: readonly string[];
  limit: number;
  /** The lease: past it the stale-lock sweep hands the job to another runner. */
  leaseSeconds: number;
}

/**
 * Claims up to `limit` due jobs, oldest `run_at` first, marks them running under this
 * runner's lease and counts the attempt.
 */
export async function claimJobs(sql: Queryable, options: ClaimOptions): Promise<JobRow[]> {
  /*
   * One statement, modelled on graphile-worker's claim (get_job): the CTE picks due rows in
   * (run_at, id) order through the partial index jobs_claim and locks them FOR UPDATE SKIP
   * LOCKED, so concurrent claimers (threads, processes, hosts) each skip rows another
   * claimer holds instead of waiting on them or taking them twice; the UPDATE in the same
   * statement flips them to running before those row locks are released at commit. A
   * plain SELECT-then-UPDATE would let two claimers read the same queued row.
   */
  const rows = await sql<JobRow[]>`
    with due as (${dueJobs(sql, options)})
    update jobs set ${claimedColumns(sql, options)} from due where jobs.id = due.id
    returning jobs.*`;
  return inClaimOrder(rows);
}

/**
 * The due jobs a claim takes, locked (`claimJobs`). The limit is written into the statement
 * (a checked integer), not sent as a parameter: a runner claims with the same one or two
 * limits every time, so PostgreSQL settles on the prepared statement's generic plan after five
 * runs and stops planning it (0.2 to 0.5 ms of a claim that runs in 0.1 ms). With a `limit $n`
 * the generic plan assumes 1,000 rows and joins them by scanning jobs, so the server planned
 * every claim anew.
 *
 * With `kinds`, each kind is read on its own through jobs_claim_by_kind (migration 0043), in
 * claim order, and the oldest of what they hold is taken: a lane never walks the jobs of
 * other kinds queued ahead of its own (a burst of due posts in front of an idle webhook lane).
 * Rows a kind locked beyond the limit go back with the statement's end, untouched.
 */
function dueJobs(sql: Queryable, options: ClaimOptions) {
  if (!Number.isSafeInteger(options.limit) || options.limit < 1) throw new Error(`Cannot claim "${options.limit}" jobs: the limit is a positive integer`);
  const limit = sql.unsafe(String(options.limit));
  if (!options.kinds) {
    return sql`
      select id from jobs
       where status = 'queued' and run_at <= now()
       order by run_at, id
       for update skip locked
       limit ${limit}`;
  }
  if (options.kinds.length === 1) {
    return sql`
      select id from jobs
       where status = 'queued' and kind = ${options.kinds[0]} and run_at <= now()
       order by run_at, id
       for update skip locked
       limit ${limit}`;
  }
  return sql`
    select due.id from unnest(${sql.array([...options.kinds])}::text[]) as lane (kind)
     cross join lateral (
       select id, run_at from jobs
        where status = 'queued' and kind = lane.kind and run_at <= now()
        order by run_at, id
        for update skip locked
        limit ${limit}) as due
     order by due.run_at, due.id
     limit ${limit}`;
}

/**
 * Milliseconds until the next queued job of `kinds` falls due (0 when one is due already), or
 * undefined when none is queued: an idle runner sleeps until then instead of a whole poll
 * interval, so a post due at 12:00:00 is claimed at 12:00:00, not at the runner's next poll.
 * Read per kind through jobs_claim_by_kind, like the claim.
 */
export async function msUntilNextDue(sql: Queryable, kinds: readonly string[]): Promise<number | undefined> {
  const [row] = await sql<{ wait_ms: number | null }[]>`
    select greatest(0, extract(epoch from min(next.run_at) - now()) * 1000)::float8 as wait_ms
      from unnest(${sql.array([...kinds])}::text[]) as lane (kind)
     cross join lateral (select run_at from jobs where status = 'queued' and kind = lane.kind order by run_at limit 1) as next`;
  return row?.wait_ms ?? undefined;
}

/** What a claim sets on a job: running under the runner's lease, one attempt more. */
function claimedColumns(sql: Queryable, options: ClaimOptions) {
  return sql`status = 'running', locked_by = ${options.runnerId}, locked_until = now() + ${options.leaseSeconds} * interval '1 second',
             attempts = jobs.attempts + 1, updated_at = now()`;
}

/** UPDATE ... RETURNING gives no order; jobs are handed out in claim order. */
function inClaimOrder(rows: readonly JobRow[]): JobRow[] {
  return [...rows].sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || a.id - b.id);
}

/**
 * `claimJobs`, completing in the same statement the jobs in `completing` that this runner
 * still holds (its previous pass's last successes): one round trip where there were two,
 * which halves the statements of a runner taking one job at a time (bench/jobs_throughput.ts).
 * The two parts touch different rows (this runner's running jobs, queued ones), so neither
 * waits on the other; the completion happens whether or not a job is claimed.
 */
export async function claimJobsCompleting(
  sql: Queryable,
  options: ClaimOptions & { completing: readonly number[] },
): Promise<{ jobs: JobRow[]; completed: number }> {
  if (options.completing.length === 0) return { jobs: await claimJobs(sql, options), completed: 0 };
  // The outer join keeps one row when nothing is claimed, to carry the completed count.
  const rows = await sql<(JobRow & { completed_count: number })[]>`
    with completed as (
      update jobs
         set status = 'done', finished_at = now(), updated_at = now(), locked_by = null, locked_until = null, last_error = null
       where id = any(${sql.array([...options.completing])}::bigint[]) and status = 'running' and locked_by = ${options.runnerId}
      returning id
    ), due as (${dueJobs(sql, options)}),
    claimed as (
      update jobs set ${claimedColumns(sql, options)} from due where jobs.id = due.id
      returning jobs.*
    )
    select claimed.*, (select count(*) from completed)::int as completed_count
      from (select 1) as one left join claimed on true`;
  const completed = rows[0]?.completed_count ?? 0;
  const jobs = inClaimOrder(rows.filter((row) => row.id !== null).map(({ completed_count: _, ...job }) => job as JobRow));
  return { jobs, completed };
}

/**
 * Marks jobs done in one statement and returns how many. With `runnerId`, only jobs this
 * runner still holds: one whose lease passed and was re-claimed elsewhere is left alone.
 */
export async function completeJobs(sql: Queryable, ids: readonly number[], options: { runnerId?: string } = {}): Promise<number> {
  if (ids.length === 0) return 0;
  const holder = options.runnerId === undefined ? sql`` : sql`and locked_by = ${options.runnerId}`;
  const rows = await sql`
    update jobs
       set status = 'done', finished_at = now(), updated_at = now(), locked_by = null, locked_until = null, last_error = null
     where id = any(${sql.array([...ids])}::bigint[]) and status = 'running' ${holder}
    returning id`;
  return rows.length;
}

/** How a failed attempt is recorded. */
export interface FailOptions {
  /** Retry at this instant instead of the backoff. */
  retryAt?: Date;
  /** Give the attempt back (a deferral, core/jobs/job_deferral.ts): the job is queued for `retryAt` and never ends `failed` here. */
  deferred?: boolean;
  /** Only when this runner still holds the job (see `completeJobs`). */
  runnerId?: string;
  /** A number in [0, 1) that places the delay within its jitter range; default `Math.random()`. */
  jitter?: number;
}

/**
 * Records a failed attempt: back to queued with `run_at` pushed out, or `failed` for good
 * once `attempts` reached `max_attempts`. Returns the updated row, or undefined when the
 * job was not running (or not held by `runnerId`).
 */
export async function failJob(sql: Queryable, id: number, error: unknown, options: FailOptions = {}): Promise<JobRow | undefined> {
  const jitter = options.jitter ?? Math.random();
  const holder = options.runnerId === undefined ? sql`` : sql`and locked_by = ${options.runnerId}`;
  /*
   * Backoff: min(2^attempts s, 1 hour) with "equal jitter": the delay is uniform in
   * [cap/2, cap], so retries of jobs that failed together (an upstream outage) spread out
   * instead of returning as one herd, and never wait past the 1-hour cap. `attempts` was
   * already counted by the claim, so the first retry waits 1-2 s.
   */
  const deferred = options.deferred === true && options.retryAt !== undefined;
  const [row] = await sql<JobRow[]>`
    update jobs
       set status = case when ${deferred}::boolean then 'queued' when attempts >= max_attempts then 'failed' else 'queued' end,
           attempts = case when ${deferred}::boolean then greatest(attempts - 1, 0) else attempts end,
           run_at = case when ${deferred}::boolean then ${options.retryAt ?? null}::timestamptz when attempts >= max_attempts then run_at
                         else coalesce(${options.retryAt ?? null}::timestamptz,
                                       now() + least(power(2, attempts), ${MAX_BACKOFF_SECONDS})
                                               * (0.5 + 0.5 * ${jitter}::float8) * interval '1 second') end,
           finished_at = case when not ${deferred}::boolean and attempts >= max_attempts then now() end,
           last_error = ${describeError(error)},
           locked_by = null,
           locked_until = null,
           updated_at = now()
     where id = ${id} and status = 'running' ${holder}
    returning *`;
  return row;
}

/**
 * Pushes the lease of jobs this runner still runs to `now() + leaseSeconds` (the runner's
 * heartbeat), so a long handler is not taken for a dead runner's.
 */
export async function extendJobLeases(sql: Queryable, ids: readonly number[], options: { runnerId: string; leaseSeconds: number }): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await sql`
    update jobs set locked_until = now() + ${options.leaseSeconds} * interval '1 second', updated_at = now()
     where id = any(${sql.array([...ids])}::bigint[]) and status = 'running' and locked_by = ${options.runnerId}
    returning id`;
  return rows.length;
}

/**
 * The stale-lock sweep: running jobs whose lease has passed (their runner was killed, lost
 * its connection or hung without a heartbeat) go back to queued, due at once; the attempt
 * they used stays counted, so a job that kills its runner every time ends `failed`.
 */
export async function sweepStaleJobs(sql: Queryable): Promise<{ requeued: number; failed: number }> {
  const rows = await sql<{ status: JobStatus }[]>`
    update jobs
       set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
           finished_at = case when attempts >= max_attempts then now() end,
           run_at = now(),
           last_error = 'Lease of job runner "' || locked_by || '" expired at ' || locked_until::text,
           locked_by = null,
           locked_until = null,
           updated_at = now()
     where status = 'running' and locked_until < now()
    returning status`;
  const failed = rows.filter((row) => row.status === "failed").length;
  return { requeued: rows.length - failed, failed };
}

/**
 * Gives back the running jobs `runnerId` holds (graceful shutdown past its bound): queued,
 * due at once, the interrupted attempt uncounted (a deploy is not the job's failure), so
 * another process retries them without waiting for the lease. Call it only once the
 * runner's handlers are stopped or cannot write any more (their completions check the holder).
 */
export async function releaseJobsHeldBy(sql: Queryable, runnerId: string): Promise<JobRow[]> {
  return sql<JobRow[]>`
    update jobs
       set status = 'queued', run_at = now(), attempts = greatest(attempts - 1, 0),
           last_error = 'Released by job runner "' || locked_by || '" shutting down',
           locked_by = null, locked_until = null, updated_at = now()
     where status = 'running' and locked_by = ${runnerId}
    returning *`;
}

/** Unfinished and failed jobs counted by kind and status (the metrics' job gauges, read at scrape time). */
export async function countJobsByKindAndStatus(sql: Queryable): Promise<{ kind: string; status: JobStatus; count: number }[]> {
  return sql<{ kind: string; status: JobStatus; count: number }[]>`
    select kind, status, count(*)::int as count from jobs
     where status in ('queued', 'running', 'failed')
     group by kind, status`;
}

/** An error as `last_error` keeps it: the stack when there is one, truncated. */
function describeError(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/** Deletes up to `limit` jobs that finished before `before`, oldest first; answers how many. */
export async function deleteFinishedJobs(sql: Queryable, options: { before: Date; limit: number }): Promise<number> {
  const rows = await sql`
    delete from jobs where id in (
      select id from jobs where finished_at < ${options.before} order by finished_at limit ${options.limit})
    returning 1`;
  return rows.length;
}

/**
 * Whether `table` exists yet: periodic handlers run on databases migrated only part of the
 * way (servers migrate in order), where a later area's table is still missing.
 */
export async function tableExists(sql: Queryable, table: string): Promise<boolean> {
  const [{ present }] = await sql<{ present: boolean }[]>`select to_regclass(${table}) is not null as present`;
  return present;
}
