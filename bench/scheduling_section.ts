/**
 * The publisher section of `npm run bench` (docs/areas.md "Scheduling"): 10,000 posts of one account
 * (enterprise plan) due in the same minute on real PostgreSQL, published through the
 * simulated network by the job runner started the way `threadline serve` starts it (a bree
 * job thread with its own pool and its own network). Measures the time from the due
 * minute until every post is `sent` (target: all within 15 s of their minute on this
 * 2-core machine), the spread of `sent_at`, and the process's peak RSS (job thread
 * included: threads share the process) sampled every 100 ms.
 *
 * Alone: `tsx bench/scheduling_section.ts` (same storage rules as the bench: DATABASE_URL,
 * else a PostgreSQL started here). Env: BENCH_SCHEDULED_POSTS (default 10000).
 */
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { availableParallelism } from "node:os";
import type { Sql } from "../core/db/sql.ts";
import { jobLanes } from "../jobs/task_list.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { createThreadline } from "../mod.ts";
import { runBenchProcess } from "./bench_process.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import { formatColumns, round } from "./report.ts";
import { seedSectionUser } from "./seed.ts";
import { provideStorage } from "./storage.ts";

/** Every post must be sent within this many seconds of its minute. */
export const TARGET_SECONDS = 15;

/** Setup (posts, jobs) must be done this long before the minute, or the next minute is used. */
const LEAD_MS = 20_000;
const MB = 1024 * 1024;

/** Where the section runs. */
export interface SchedulingTarget {
  /** The bench's pool (setup and observation). */
  sql: Sql;
  /** The private database's URL; undefined (embedded PGlite) skips the section. */
  databaseUrl?: string;
  keyPrefix: string;
}

/**
 * Schedules the posts, runs the publisher, prints the section and returns its
 * `BENCH_RESULT` figures (or why it was skipped).
 */
export async function measureScheduling(target: SchedulingTarget, notPostgres: string | undefined, signal: AbortSignal) {
  const count = Number(process.env.BENCH_SCHEDULED_POSTS ?? 10_000);
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`BENCH_SCHEDULED_POSTS must be a positive integer, got "${process.env.BENCH_SCHEDULED_POSTS}"`);
  console.log("");
  console.log(`Publisher: ${count} posts of one account due in the same minute, published by the job runner as \`serve\` starts it`);
  if (notPostgres || !target.databaseUrl) {
    const reason = `needs PostgreSQL (the target and the job-thread runner are for a real server), got ${notPostgres ?? "no database URL"}`;
    console.log(`publisher: SKIPPED: ${reason}`);
    return { skipped: reason };
  }
  const { sql } = target;
  const user = await seedSectionUser(sql, { keyPrefix: target.keyPrefix, label: "publisher" });
  const accountId = user.ownerId;

  // The minute: the next whole minute with enough lead for the setup.
  const minute = new Date(Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000);
  const tag = randomBytes(3).toString("hex");
  const setupStarted = performance.now();
  // Distinct texts: the network refuses one author's identical text twice a day.
  await sql`
    insert into scheduled_posts (account_id, status, scheduled_for, parts)
    select ${accountId}, 'scheduled', ${minute}, jsonb_build_array(jsonb_build_object('text', 'Bench post ' || i || ' (' || ${tag}::text || ')', 'media', '[]'::jsonb))
      from generate_series(1, ${count}) as i`;
  const ids = (await sql<{ id: number }[]>`select id from scheduled_posts where account_id = ${accountId} order by id`).map((row) => row.id);
  // The create endpoint's own path arms the publisher: one job per post, at its time.
  for (let i = 0; i < ids.length; i += 1000) await sql.begin((tx) => schedulePublication(tx, ids.slice(i, i + 1000)));
  await sql`vacuum analyze scheduled_posts`;
  await sql`vacuum analyze jobs`;
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  if (Date.now() > minute.getTime() - 2000)
    throw new Error(`Setup took ${setupSeconds.toFixed(1)} s, past the lead of ${LEAD_MS / 1000} s; lower BENCH_SCHEDULED_POSTS`);
  signal.throwIfAborted();

  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 100);
  const runner = await startJobs({ databaseUrl: target.databaseUrl, ports: { network: {} }, logger: console });
  console.log(
    `publisher: ${count} posts scheduled for ${minute.toISOString()} (setup ${setupSeconds.toFixed(1)} s); runner started, waiting for the minute ...`,
  );
  let observed: { sent: number; failed: number };
  let allDoneWallMs: number | undefined;
  try {
    const deadline = minute.getTime() + 120_000;
    for (;;) {
      signal.throwIfAborted();
      const [row] = await sql<{ sent: number; failed: number }[]>`
        select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'error')::int as failed
          from scheduled_posts where account_id = ${accountId}`;
      observed = row;
      if (row.sent + row.failed >= count) {
        allDoneWallMs = Date.now();
        break;
      }
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    clearInterval(sampler);
    await runner.stop();
  }
  const [spread] = await sql<{ first_s: number | null; p50_s: number | null; p95_s: number | null; last_s: number | null }[]>`
    select min(s) as first_s, percentile_cont(0.5) within group (order by s) as p50_s,
           percentile_cont(0.95) within group (order by s) as p95_s, max(s) as last_s
      from (select extract(epoch from sent_at - ${minute}::timestamptz)::float8 as s
              from scheduled_posts where account_id = ${accountId} and status = 'sent') as sent`;
  const [network] = await sql<{ posts: number; tokens: number }[]>`
    select count(*)::int as posts, count(distinct client_token)::int as tokens from network_posts where author_id = ${accountId}`;
  const lastSeconds = spread.last_s ?? Number.NaN;
  const allSent = observed!.sent === count;
  const pass = allSent && lastSeconds <= TARGET_SECONDS;
  const lane = jobLanes.find((entry) => entry.kinds.includes("publish_scheduled_post"));

  console.log("");
  console.log("== Publisher: posts due in the same minute ==");
  console.log(
    formatColumns(
      ["posts", "sent", "error", "first s", "p50 s", "p95 s", "all sent s", "posts/s", "RSS base MB", "RSS peak MB"],
      [
        [
          String(count),
          String(observed!.sent),
          String(observed!.failed),
          fmt(spread.first_s),
          fmt(spread.p50_s),
          fmt(spread.p95_s),
          fmt(spread.last_s),
          spread.last_s && spread.first_s !== null ? (count / spread.last_s).toFixed(0) : "-",
          (baselineRss / MB).toFixed(1),
          (peakRss / MB).toFixed(1),
        ],
      ],
    ),
  );
  console.log(
    `(seconds after the due minute, from each post's sent_at; one job thread (pool 4) with the publish lane claiming ${lane?.batchSize} ` +
      `and running ${lane?.concurrency} at once; ${availableParallelism()} CPUs shared with PostgreSQL; the network is the simulated one, ` +
      `storing each post in PostgreSQL; RSS is this process's, job thread included)`,
  );
  console.log(
    `network: ${network.posts} posts written by the account, ${network.tokens} distinct part tokens (each part exactly once: ${network.posts === count && network.tokens === count ? "yes" : "NO"})`,
  );
  console.log(
    `target: all ${count} posts sent within ${TARGET_SECONDS} s of their minute: ${pass ? "PASS" : "FAIL"}${allDoneWallMs === undefined ? " (not all done within 120 s)" : ""}`,
  );
  return {
    target_seconds: TARGET_SECONDS,
    pass,
    posts: count,
    sent: observed!.sent,
    error: observed!.failed,
    first_sent_s: roundOrNull(spread.first_s),
    p50_sent_s: roundOrNull(spread.p50_s),
    p95_sent_s: roundOrNull(spread.p95_s),
    all_sent_s: roundOrNull(spread.last_s),
    setup_s: round(setupSeconds, 2),
    rss_baseline_mb: round(baselineRss / MB, 1),
    rss_peak_mb: round(peakRss / MB, 1),
    network_posts: network.posts,
    lane: lane ? { batch_size: lane.batchSize, concurrency: lane.concurrency } : null,
  };
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
