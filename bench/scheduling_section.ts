/**
 * The publisher section of `npm run bench` (docs/areas.md "Scheduling"): posts of one account
 * (enterprise plan) due in the same minute on real PostgreSQL, published through the
 * simulated network by job runners started the way `threadline serve` starts them (a bree
 * job thread with its own pool and its own network). Two runs:
 *
 * - 10,000 posts on one process: every post `sent` within 5 s of its minute (first, p50, p99
 *   and max lateness from each post's `sent_at`), and the process's RSS (job thread included:
 *   threads share the process) under 300 MB while it publishes.
 * - 100,000 posts on two processes: all `sent` within 60 s, each process under 300 MB while
 *   it publishes.
 *
 * Each publishing process is bench/publisher_process.ts, a job runner and nothing else; this
 * process schedules the posts and watches them, so the memory of the bench's own servers
 * (the request path's, the caches of earlier sections) is never counted as the publisher's.
 *
 * RSS is sampled every 100 ms; the peak "while publishing" runs from the due minute until
 * the last post is sent, and the peak "with start" also covers the job thread loading its
 * modules (tsx compiles them in the thread: a transient of about 100 MB, over before the
 * minute), printed beside it.
 *
 * Alone: `tsx bench/scheduling_section.ts` (same storage rules as the bench: DATABASE_URL,
 * else a PostgreSQL started here). Env: BENCH_SCHEDULED_POSTS (default 10000),
 * BENCH_SCHEDULED_POSTS_SCALE (default 100000; 0 skips the two-process run).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { availableParallelism } from "node:os";
import type { Sql } from "../core/db/sql.ts";
import { jobLanes } from "../jobs/task_list.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { createThreadline } from "../mod.ts";
import { runBenchProcess } from "./bench_process.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import { formatColumns, round } from "./report.ts";
import { seedSectionUser } from "./seed.ts";
import { provideStorage } from "./storage.ts";

/** One process: every post must be sent within this many seconds of its minute. */
export const TARGET_SECONDS = 5;
/** Two processes: every post of the larger burst within this many seconds. */
export const SCALE_TARGET_SECONDS = 60;
/** Each process's RSS while it publishes must stay under this. */
export const RSS_TARGET_MB = 300;

const PUBLISHING_PROCESS = fileURLToPath(new URL("./publisher_process.ts", import.meta.url));

/** Where the section runs. */
export interface SchedulingTarget {
  /** The bench's pool (setup and observation). */
  sql: Sql;
  /** The private database's URL; undefined (embedded PGlite) skips the section. */
  databaseUrl?: string;
  keyPrefix: string;
}

/**
 * Runs the one-process burst and the two-process one, prints them and returns their
 * `BENCH_RESULT` figures (or why the section was skipped).
 */
export async function measureScheduling(target: SchedulingTarget, notPostgres: string | undefined, signal: AbortSignal) {
  const count = Math.max(1, postsSetting("BENCH_SCHEDULED_POSTS", 10_000));
  const scaleCount = postsSetting("BENCH_SCHEDULED_POSTS_SCALE", 100_000);
  console.log("");
  console.log(`Publisher: posts of one account due in the same minute, published by job runners as \`serve\` starts them`);
  if (notPostgres || !target.databaseUrl) {
    const reason = `needs PostgreSQL (the target and the job-thread runner are for a real server), got ${notPostgres ?? "no database URL"}`;
    console.log(`publisher: SKIPPED: ${reason}`);
    return { skipped: reason };
  }
  const lane = jobLanes.find((entry) => entry.kinds.includes("publish_scheduled_post"));
  const one = await publishBurst({ ...target, databaseUrl: target.databaseUrl }, { count, processes: 1, targetSeconds: TARGET_SECONDS }, signal);
  const two =
    scaleCount > 0
      ? await publishBurst({ ...target, databaseUrl: target.databaseUrl }, { count: scaleCount, processes: 2, targetSeconds: SCALE_TARGET_SECONDS }, signal)
      : undefined;

  console.log("");
  console.log("== Publisher: posts due in the same minute ==");
  console.log(
    formatColumns(
      ["posts", "processes", "sent", "error", "first s", "p50 s", "p99 s", "max s", "posts/s", "RSS publishing MB", "RSS with start MB", "target"],
      [one, ...(two ? [two] : [])].map((run) => [
        String(run.posts),
        String(run.processes),
        String(run.sent),
        String(run.error),
        fmt(run.first_s),
        fmt(run.p50_s),
        fmt(run.p99_s),
        fmt(run.max_s),
        run.max_s ? (run.sent / run.max_s).toFixed(0) : "-",
        run.rss_publishing_mb.map((mb) => mb.toFixed(0)).join(" + "),
        run.rss_with_start_mb.map((mb) => mb.toFixed(0)).join(" + "),
        run.pass ? "PASS" : "FAIL",
      ]),
    ),
  );
  console.log(
    `(lateness in seconds after the due minute, from each post's sent_at; each process one job thread (pool 4), the publish lane claiming ${lane?.batchSize} ` +
      `and running ${lane?.concurrency} at once; ${availableParallelism()} CPUs shared with PostgreSQL; the network is the simulated one, ` +
      "storing each post in PostgreSQL; RSS per process, job thread included)",
  );
  for (const run of [one, ...(two ? [two] : [])]) {
    console.log(
      `network (${run.posts} posts): ${run.network_posts} posts written, ${run.network_tokens} distinct part tokens (each part exactly once: ${run.network_posts === run.posts && run.network_tokens === run.posts ? "yes" : "NO"})`,
    );
  }
  console.log(
    `target: ${count} posts on one process all sent within ${TARGET_SECONDS} s of their minute, RSS under ${RSS_TARGET_MB} MB while publishing: ${one.pass ? "PASS" : "FAIL"}`,
  );
  if (two) {
    console.log(
      `target: ${scaleCount} posts on two processes all sent within ${SCALE_TARGET_SECONDS} s, each under ${RSS_TARGET_MB} MB while publishing: ${two.pass ? "PASS" : "FAIL"}`,
    );
  }
  return {
    target_seconds: TARGET_SECONDS,
    scale_target_seconds: SCALE_TARGET_SECONDS,
    rss_target_mb: RSS_TARGET_MB,
    pass: one.pass && (two?.pass ?? true),
    ...flatFigures(one),
    scale: two ?? null,
    lane: lane ? { batch_size: lane.batchSize, concurrency: lane.concurrency } : null,
  };
}

/** The one-process run's figures under the names the section always reported. */
function flatFigures(run: BurstFigures) {
  return {
    posts: run.posts,
    sent: run.sent,
    error: run.error,
    first_sent_s: run.first_s,
    p50_sent_s: run.p50_s,
    p99_sent_s: run.p99_s,
    all_sent_s: run.max_s,
    setup_s: run.setup_s,
    rss_peak_mb: run.rss_publishing_mb[0],
    rss_peak_with_start_mb: run.rss_with_start_mb[0],
    network_posts: run.network_posts,
  };
}

/** What one burst measured. */
interface BurstFigures {
  posts: number;
  processes: number;
  sent: number;
  error: number;
  first_s: number | null;
  p50_s: number | null;
  p99_s: number | null;
  max_s: number | null;
  setup_s: number;
  /** Per process (this one first): peak RSS from the minute until the last post was sent. */
  rss_publishing_mb: number[];
  /** Per process: peak RSS since its job runner started. */
  rss_with_start_mb: number[];
  network_posts: number;
  network_tokens: number;
  pass: boolean;
}

/** A publishing process (publisher_process.ts), once it is ready. */
interface PublishingProcess {
  child: ChildProcessByStdio<Writable, Readable, null>;
  /** Resolves with its `PEAK_RSS_MB` line's figures once it stopped. */
  peaks: Promise<[number, number]>;
}

/**
 * Schedules `count` posts due in the next minute that leaves room for the setup, starts a
 * job runner in each of `processes` processes, and waits until every post is
 * sent or failed (or the minute plus twice the target and a minute more passed).
 */
async function publishBurst(
  target: SchedulingTarget & { databaseUrl: string },
  run: { count: number; processes: number; targetSeconds: number },
  signal: AbortSignal,
): Promise<BurstFigures> {
  const { sql } = target;
  const { count } = run;
  const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: `publisher-${run.processes}` });
  const accountId = user.ownerId;
  // The setup (rows, jobs, the other processes' start) must end before the minute.
  const leadMs = 20_000 + count * 0.15;
  const minute = new Date(Math.ceil((Date.now() + leadMs) / 60_000) * 60_000);
  const tag = randomBytes(3).toString("hex");
  const setupStarted = performance.now();
  // Distinct texts: the network refuses one author's identical text twice a day.
  await sql`
    insert into scheduled_posts (account_id, status, scheduled_for, parts)
    select ${accountId}, 'scheduled', ${minute}, jsonb_build_array(jsonb_build_object('text', 'Bench post ' || i || ' (' || ${tag}::text || ')', 'media', '[]'::jsonb))
      from generate_series(1, ${count}) as i`;
  const ids = (await sql<{ id: number }[]>`select id from scheduled_posts where account_id = ${accountId} order by id`).map((row) => row.id);
  // Analyzed before the publisher is armed: its statements look posts up by id, which the
  // statistics of the table before the insert plan as scans (3 s for each 1,000 posts).
  await sql`vacuum analyze scheduled_posts`;
  // The create endpoint's own path arms the publisher: one job per post, at its time.
  for (let i = 0; i < ids.length; i += 1000) await sql.begin((tx) => schedulePublication(tx, ids.slice(i, i + 1000)));
  await sql`vacuum analyze scheduled_posts`;
  await sql`vacuum analyze jobs`;
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  signal.throwIfAborted();

  const publishers = await Promise.all(Array.from({ length: run.processes }, () => startPublishingProcess(target.databaseUrl)));
  if (Date.now() > minute.getTime() - 2000) {
    for (const publisher of publishers) publisher.child.kill();
    throw new Error(`Setup took ${setupSeconds.toFixed(1)} s, past the lead of ${(leadMs / 1000).toFixed(0)} s; lower the post count`);
  }
  const windowTimer = setTimeout(() => {
    for (const publisher of publishers) publisher.child.stdin.write("window\n");
  }, minute.getTime() - Date.now());
  console.log(
    `publisher: ${count} posts scheduled for ${minute.toISOString()} (setup ${setupSeconds.toFixed(1)} s), ${run.processes} process(es) ready; waiting for the minute ...`,
  );
  try {
    const deadline = minute.getTime() + run.targetSeconds * 2_000 + 60_000;
    // The watch asks whether any post still waits (the first entry of the partial index of
    // scheduled posts): a count of the posts each time (a scan of 100,000 rows, 150 ms every
    // 200 ms) took most of a core from the publishers it was watching.
    for (;;) {
      signal.throwIfAborted();
      const waiting = await sql`
        select 1 from scheduled_posts where status = 'scheduled' and scheduled_for = ${minute} and account_id = ${accountId} limit 1`;
      if (waiting.length === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    clearTimeout(windowTimer);
    for (const publisher of publishers) publisher.child.stdin.write("stop\n");
  }
  const [observed] = await sql<{ sent: number; failed: number }[]>`
    select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'error')::int as failed
      from scheduled_posts where account_id = ${accountId}`;
  const peaks = await Promise.all(publishers.map((publisher) => publisher.peaks));
  const [spread] = await sql<{ first_s: number | null; p50_s: number | null; p99_s: number | null; max_s: number | null }[]>`
    select min(s) as first_s, percentile_cont(0.5) within group (order by s) as p50_s,
           percentile_cont(0.99) within group (order by s) as p99_s, max(s) as max_s
      from (select extract(epoch from sent_at - ${minute}::timestamptz)::float8 as s
              from scheduled_posts where account_id = ${accountId} and status = 'sent') as sent`;
  const [network] = await sql<{ posts: number; tokens: number }[]>`
    select count(*)::int as posts, count(distinct client_token)::int as tokens from network_posts where author_id = ${accountId}`;
  const rssPublishing = peaks.map(([publishing]) => publishing);
  const rssWithStart = peaks.map(([, withStart]) => withStart);
  const maxSeconds = spread.max_s ?? Number.NaN;
  return {
    posts: count,
    processes: run.processes,
    sent: observed.sent,
    error: observed.failed,
    first_s: roundOrNull(spread.first_s),
    p50_s: roundOrNull(spread.p50_s),
    p99_s: roundOrNull(spread.p99_s),
    max_s: roundOrNull(spread.max_s),
    setup_s: round(setupSeconds, 2),
    rss_publishing_mb: rssPublishing.map((mb) => round(mb, 1)),
    rss_with_start_mb: rssWithStart.map((mb) => round(mb, 1)),
    network_posts: network.posts,
    network_tokens: network.tokens,
    pass: observed.sent === count && maxSeconds <= run.targetSeconds && rssPublishing.every((mb) => mb < RSS_TARGET_MB),
  };
}

/** Starts publisher_process.ts on `databaseUrl` and waits for its `READY`. */
async function startPublishingProcess(databaseUrl: string): Promise<PublishingProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", PUBLISHING_PROCESS], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  let ready!: () => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once("exit", (code) => reject(new Error(`A publishing process exited (${code}) before it was ready`)));
  });
  const peaks = new Promise<[number, number]>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "READY") ready();
      const match = /^PEAK_RSS_MB (\S+) (\S+)$/.exec(line);
      if (match) resolve([Number(match[1]), Number(match[2])]);
    });
    child.once("exit", () => reject(new Error("A publishing process exited without its RSS figures")));
  });
  peaks.catch(() => {});
  await started;
  return { child, peaks };
}

function postsSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${process.env[name]}"`);
  return value;
}

function fmt(value: number | null): string {
  return value === null ? "-" : value.toFixed(2);
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : round(value, 3);
}

/** `tsx bench/scheduling_section.ts`: only this section, on the bench's storage. */
async function standalone(cleanup: CleanupStack, signal: AbortSignal): Promise<number> {
  const storage = await provideStorage(cleanup, randomBytes(6).toString("hex"));
  const threadline = createThreadline({ databaseUrl: storage.databaseUrl, dataDir: null, redisUrl: storage.redisUrl, redisPrefix: storage.redisPrefix });
  cleanup.push("close Threadline", () => threadline.close());
  const services = await threadline.start();
  const notPostgres = storage.database.source === "embedded-pglite" ? storage.database.description : undefined;
  console.log(`database: ${storage.database.description}`);
  const figures = await measureScheduling({ sql: services.sql, databaseUrl: storage.databaseUrl, keyPrefix: "sxk_" }, notPostgres, signal);
  console.log("");
  console.log(`BENCH_RESULT ${JSON.stringify({ scheduling: figures })}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runBenchProcess(standalone);
