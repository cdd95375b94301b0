/**
 * `npm run bench`: the full authenticated request path (`GET /v1/tags?limit=20` with a
 * Bearer key: auth, subscription and scope gates, request buckets, tRPC, zod input and
 * output, account resolution) against a bare h3 route running the same SQL on the same
 * pool, in one run, with autocannon in a child process. Prints a table and the target line
 * (full keeps >= 75% of bare's throughput). Then, on the same storage, two more sections:
 * job claim + completion throughput (jobs_section.ts: target >= 5,000 jobs/s batched) and
 * the added latency of the idempotency check on `POST /v1/tags` (idempotency_section.ts:
 * figures only), live X lookups cached vs uncached (lookups_section.ts) and the overhead of
 * the credit step and counters on an AI call (ai_overhead_section.ts), both figures only.
 * Then the publisher (scheduling_section.ts: 10,000 posts due in one minute, all `sent`
 * within 5 s on one process, and 100,000 within 60 s on two, each under 300 MB RSS;
 * BENCH_SCHEDULED_POSTS, BENCH_SCHEDULED_POSTS_SCALE) and `GET /v1/scheduled-posts` on an account with
 * 100,000 posts, page 1 and a deep page, vs the same SQL run directly
 * (scheduled_list_section.ts: within 2x of a bare route running the same SQL; BENCH_LIST_POSTS, BENCH_LIST_CALLS), and 100 AI cover jobs queued at once
 * (cover_jobs_section.ts: bounded concurrency and memory, figures only), and the full path with request logs and
 * metrics on vs off (operations_section.ts: cost < 5% of throughput; alone with BENCH_SECTIONS=operations), and an MCP
 * tool call against the same REST call (mcp_section.ts: within 1.3x; `tools/list` latency), and analytics over 366 days
 * of 100,000 posts vs the bare SQL with the content sync of a 10,000-post account (content_section.ts). Last, one
 * `BENCH_RESULT <json>` line with all of them (`jobs`, `idempotency`, `lookups`, `ai_overhead`, `scheduling`,
 * `scheduled_list`, `cover_jobs`, `operations`, `mcp`, `content`, `inspiration`, `audience`, `signals`, the dataset
 * sections, `engage` and `dm`). The inspiration section
 * (inspiration_section.ts) loads 1,000,000 posts and times a two-word search with filters (target: p50 < 100 ms).
 * The audience section (audience_section.ts) seeds 100,000 contacts in one list and times member search with `q`
 * and `GET /v1/contacts?sort=engagement` (page 1 and 100) vs a bare route (target: p50 < 20 ms and within 2x),
 * then bulk add and bulk delete of 500 members (ms, figures only). The signals section (signals_section.ts) times one
 * lead search on the simulated network (seconds, queries used) and the agent runner over 100 active agents (agents/s,
 * leads found per run; BENCH_SIGNAL_AGENTS, BENCH_SIGNAL_CONCURRENCY), figures only. The dataset sections, figures
 * only: `datasets` (dataset_collect_section.ts) collects the repliers of the world's largest fixture post in the
 * background through REST (time to `ready`, rows/s); `research` (research_section.ts) times a research run of 5
 * profiles (201) and one of 25 (202 to ready); `dataset_export` (dataset_export_section.ts) times a 1,000-row CSV
 * export over REST and compares the heap growth of 1,000 vs 10,000 rows (valid when 10x the rows needs under 3x the
 * memory: streamed; BENCH_EXPORT_RUNS); `dataset_outreach` (dataset_outreach_section.ts) drafts outreach messages
 * for 25 researched rows through REST (ms per row; BENCH_OUTREACH_RUNS). The engage section (engage_section.ts)
 * times a keyword feed's first page fresh vs cached and a page of mentions (p50/p95 ms; BENCH_ENGAGE_CALLS, default
 * 30), figures only. The DM section (dm_section.ts)
 * queues 10,000 messages across 100 accounts and times the sender until all are sent (messages/s, peak memory;
 * BENCH_DM_ACCOUNTS, BENCH_DM_PER_ACCOUNT, BENCH_DM_CONCURRENCY), figures only.
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_WARMUP
 * (s, default 3); BENCH_JOBS (default 20000), BENCH_JOB_BATCH (200), BENCH_JOB_RUNNERS (4),
 * BENCH_JOBS_UNBATCHED (5000); BENCH_WRITE_DURATION (s, default 5), BENCH_WRITE_WARMUP
 * (s, default 2), BENCH_WRITE_CONNECTIONS (default 10); BENCH_LOOKUP_MISSES (default 250, at most
 * 300), BENCH_LOOKUP_DURATION (s, default 3, at most 5), BENCH_LOOKUP_WARMUP (s, default 1),
 * BENCH_LOOKUP_CONNECTIONS (10);
 * BENCH_AI_CALLS (1000), BENCH_AI_DURATION (s, 5), BENCH_AI_WARMUP (s, 2),
 * BENCH_AI_CONNECTIONS (10); DATABASE_URL and REDIS_URL to bench
 * against existing servers; BENCH_STORAGE=embedded to force embedded PGlite and in-memory counters;
 * BENCH_SECTIONS (comma list of `path`, `jobs`, `idempotency`, `lookups`, `ai_overhead`,
 * `scheduling`, `scheduled_list`, `cover_jobs`, `operations`, `mcp`, `content`, `inspiration`, `audience`, `signals`,
 * `datasets`, `research`, `dataset_export`, `dataset_outreach`, `engage`, `dm`, `events` (BENCH_EVENTS, default 10000),
 * `webhooks` (BENCH_WEBHOOK_EVENTS, BENCH_WEBHOOK_IDLE); default all;
 * BENCH_MCP_CALLS, default 1000; BENCH_CONTENT_POSTS, BENCH_CONTENT_CALLS, BENCH_SYNC_POSTS; BENCH_AUDIENCE_CONTACTS,
 * default 100000, BENCH_AUDIENCE_CALLS, default 200, BENCH_AUDIENCE_BULK_RUNS, default 5) runs only those sections, the others
 * answering null in the JSON.
 * Exits 0 whether or not the targets are met; non-zero when setup or measuring fails, or when
 * a measured run answered non-2xx (`valid` false in the JSON for full/bare, `idempotency.valid`,
 * `lookups.valid`, `ai_overhead.valid`, `audience.valid`, `signals.valid`, the dataset sections' `valid`,
 * `engage.valid`, `dm.valid`, `events.valid`, `webhooks.valid`). The webhooks section (webhooks_section.ts) delivers
 * 10,000 `post.sent` events to a local receiver (events/s, p99 lag from created_at), then the fairness figure
 * (webhook_fairness.ts: a quick endpoint's p99 lag beside another owner's endpoint answering in 9 s; target within 2x).
 */
import { availableParallelism } from "node:os";
import type { CleanupStack } from "./cleanup_stack.ts";
import { runBenchProcess } from "./bench_process.ts";
import { type BenchSettings, settingsFromEnv } from "./bench_settings.ts";
import { KEY_PREFIX, type RoutesUnderTest, setUpRoutes, type Target } from "./routes_under_test.ts";
import type { BenchStorage } from "./storage.ts";
import { runLoad, type LoadResult } from "./load_run.ts";
import { countKeys } from "./redis_keys.ts";
import { formatTable, resultFigures, round } from "./report.ts";
import { measureJobs } from "./jobs_section.ts";
import { measureIdempotency } from "./idempotency_section.ts";
import { measureLookups } from "./lookups_section.ts";
import { measureAiOverhead } from "./ai_overhead_section.ts";
import { measureScheduling } from "./scheduling_section.ts";
import { measureScheduledList } from "./scheduled_list_section.ts";
import { measureCoverJobs } from "./cover_jobs_section.ts";
import { measureOperations } from "./operations_section.ts";
import { measureMcp } from "./mcp_section.ts";
import { measureContent } from "./content_section.ts";
import { measureInspiration } from "./inspiration_section.ts";
import { measureAudience } from "./audience_section.ts";
import { measureSignals } from "./signals_section.ts";
import { measureDatasetCollect } from "./dataset_collect_section.ts";
import { measureResearch } from "./research_section.ts";
import { measureDatasetExport } from "./dataset_export_section.ts";
import { measureDatasetOutreach } from "./dataset_outreach_section.ts";
import { measureEngage } from "./engage_section.ts";
import { measureDms } from "./dm_section.ts";
import { measureEvents } from "./events_section.ts";
import { measureWebhooks } from "./webhooks_section.ts";

/** The full path must keep at least this share of the bare route's throughput. */
const TARGET_RATIO = 0.75;

const SECTIONS = [
  "path",
  "jobs",
  "idempotency",
  "lookups",
  "ai_overhead",
  "scheduling",
  "scheduled_list",
  "cover_jobs",
  "operations",
  "mcp",
  "content",
  "inspiration",
  "audience",
  "signals",
  "datasets",
  "research",
  "dataset_export",
  "dataset_outreach",
  "engage",
  "dm",
  "events",
  "webhooks",
] as const;
type Section = (typeof SECTIONS)[number];

/** The sections BENCH_SECTIONS names (default all); an unknown name fails before anything runs. */
function selectedSections(): Set<Section> {
  const names = (process.env.BENCH_SECTIONS ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return new Set(SECTIONS);
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`Unknown BENCH_SECTIONS "${unknown.join(",")}"; known: ${SECTIONS.join(", ")}`);
  return new Set(names as Section[]);
}

await runBenchProcess(bench);

async function bench(cleanup: CleanupStack, signal: AbortSignal): Promise<number> {
  const settings = settingsFromEnv();
  const sections = selectedSections();
  /** Runs `measure` when its section is selected, else answers undefined. */
  const section = <T>(name: Section, measure: () => Promise<T>): Promise<T | undefined> => (sections.has(name) ? measure() : Promise.resolve(undefined));
  console.log("Preparing storage and both routes ...");
  const routes = await setUpRoutes(cleanup, signal);
  const { storage, full, bare } = routes;
  const notReal = notTheTarget(storage);
  printHeader(routes, settings, notReal);

  const results: { target: Target; result: LoadResult }[] = [];
  let redisKeysAfterFull: number | undefined;
  for (const target of sections.has("path") ? [full, bare] : []) {
    if (settings.warmupSeconds > 0) {
      console.log(`${target.label}: warming up for ${settings.warmupSeconds} s ...`);
      const warm = await runLoad({ ...loadOptions(target, settings, signal), durationSeconds: settings.warmupSeconds });
      if (warm.non2xx > 0 || warm.errors > 0) console.log(`  warm-up saw ${warm.non2xx} non-2xx answers and ${warm.errors} errors`);
    }
    console.log(`${target.label}: measuring for ${settings.durationSeconds} s ...`);
    results.push({ target, result: await runLoad(loadOptions(target, settings, signal)) });
    if (target === full && storage.redisUrl) redisKeysAfterFull = await countKeys(storage.redisUrl, storage.redisPrefix);
  }

  const path = results.length === 2 ? reportPath(results, redisKeysAfterFull, storage.redisPrefix, notReal) : undefined;

  const notPostgres = storage.database.source === "embedded-pglite" ? storage.database.description : undefined;
  const jobs = await section("jobs", () => measureJobs({ sql: routes.sql, databaseUrl: storage.databaseUrl }, settings.jobs, notPostgres, signal));
  const writeTarget = { sql: routes.sql, origin: routes.fullOrigin, writeKey: routes.user.writeKey, workspaceId: routes.user.workspaceId };
  const idempotency = await section("idempotency", () => measureIdempotency(writeTarget, settings.writes, notReal, signal));
  const sectionTarget = { services: routes.services, origin: routes.fullOrigin, keyPrefix: KEY_PREFIX };
  const lookups = await section("lookups", () => measureLookups(sectionTarget, settings.lookups, notReal, signal));
  const aiOverhead = await section("ai_overhead", () => measureAiOverhead(sectionTarget, settings.ai, notReal, signal));
  const schedulingTarget = { sql: routes.sql, databaseUrl: storage.databaseUrl, keyPrefix: KEY_PREFIX };
  const scheduling = await section("scheduling", () => measureScheduling(schedulingTarget, notPostgres, signal));
  const listSettings = { posts: Number(process.env.BENCH_LIST_POSTS ?? 100_000), limit: 20, calls: Number(process.env.BENCH_LIST_CALLS ?? 200) };
  const scheduledList = await section("scheduled_list", () => measureScheduledList(sectionTarget, listSettings, notReal));
  const coverTarget = { sql: routes.sql, databaseUrl: storage.databaseUrl, origin: routes.fullOrigin, keyPrefix: KEY_PREFIX };
  const coverJobs = await section("cover_jobs", () => measureCoverJobs(coverTarget, notPostgres, signal));
  const operations = await section("operations", () => measureOperations(routes, settings, cleanup, signal));
  const mcp = await section("mcp", () => measureMcp(routes, settings, signal));
  const contentSettings = {
    posts: Number(process.env.BENCH_CONTENT_POSTS ?? 100_000),
    calls: Number(process.env.BENCH_CONTENT_CALLS ?? 200),
    syncPosts: Number(process.env.BENCH_SYNC_POSTS ?? 10_000),
  };
  const content = await section("content", () => measureContent(sectionTarget, contentSettings, notReal));
  const inspiration = await section("inspiration", () => measureInspiration(sectionTarget, notReal));
  const audience = await section("audience", () => measureAudience(sectionTarget, settings.audience, notReal));
  const signals = await section("signals", () => measureSignals(sectionTarget, notReal));
  const datasets = await section("datasets", () => measureDatasetCollect(sectionTarget, notReal));
  const research = await section("research", () => measureResearch(sectionTarget, notReal));
  const datasetExport = await section("dataset_export", () => measureDatasetExport(sectionTarget, notReal));
  const datasetOutreach = await section("dataset_outreach", () => measureDatasetOutreach(sectionTarget, notReal));
  const engage = await section("engage", () => measureEngage(sectionTarget, notReal));
  const dm = await section("dm", () => measureDms(sectionTarget, notReal));
  const events = await section("events", () => measureEvents(sectionTarget, notReal));
  const webhooks = await section("webhooks", () => measureWebhooks(sectionTarget, notReal));

  const summary = {
    target_ratio: TARGET_RATIO,
    ratio: path ? round(path.ratio, 4) : null,
    cpu_per_request_ratio: path ? round(path.cpuRatio, 4) : null,
    pass: path?.pass ?? null,
    valid: path ? path.invalid.length === 0 : null,
    real_target: notReal === undefined,
    storage: {
      database: storage.database.source,
      postgres_version: storage.database.version ?? null,
      counters: storage.counters.source,
      redis_version: storage.counters.version ?? null,
      pool_size: routes.poolSize,
    },
    settings: {
      duration_s: settings.durationSeconds,
      warmup_s: settings.warmupSeconds,
      connections: settings.connections,
      pipelining: settings.pipelining,
      load_generator: "autocannon 9, child process",
      node: process.version,
      cpus: availableParallelism(),
    },
    full: path ? { request: `GET ${pathOf(full)}`, ...resultFigures(path.full) } : null,
    bare: path ? { request: `GET ${pathOf(bare)}`, ...resultFigures(path.bare) } : null,
    jobs: jobs ?? null,
    idempotency: idempotency?.summary ?? null,
    lookups: lookups?.summary ?? null,
    ai_overhead: aiOverhead?.summary ?? null,
    scheduling: scheduling ?? null,
    scheduled_list: scheduledList?.summary ?? null,
    cover_jobs: coverJobs ?? null,
    operations: operations ?? null,
    mcp: mcp ?? null,
    content: content?.summary ?? null,
    inspiration: inspiration ?? null,
    audience: audience?.summary ?? null,
    signals: signals?.summary ?? null,
    datasets: datasets?.summary ?? null,
    research: research?.summary ?? null,
    dataset_export: datasetExport?.summary ?? null,
    dataset_outreach: datasetOutreach?.summary ?? null,
    engage: engage?.summary ?? null,
    dm: dm?.summary ?? null,
    events: events?.summary ?? null,
    webhooks: webhooks?.summary ?? null,
  };
  console.log("");
  console.log(`BENCH_RESULT ${JSON.stringify(summary)}`);
  const valid = [
    path ? path.invalid.length === 0 : true,
    idempotency?.valid,
    lookups?.valid,
    aiOverhead?.valid,
    scheduledList?.valid,
    operations?.valid,
    mcp?.valid,
    content?.valid,
    inspiration?.valid,
    audience?.valid,
    signals?.valid,
    datasets?.valid,
    research?.valid,
    datasetExport?.valid,
    datasetOutreach?.valid,
    engage?.valid,
    dm?.valid,
    events?.valid,
    webhooks?.valid,
  ];
  return valid.every((ok) => ok !== false) ? 0 : 1;
}

/** Prints the full-vs-bare table and target line; answers the figures. */
function reportPath(
  results: { target: Target; result: LoadResult }[],
  redisKeysAfterFull: number | undefined,
  redisPrefix: string | undefined,
  notReal: string | undefined,
) {
  const [fullResult, bareResult] = results.map(({ result }) => result);
  const ratio = fullResult.requestsPerSecond / bareResult.requestsPerSecond;
  const pass = ratio >= TARGET_RATIO;
  const invalid = results.filter(({ result }) => result.non2xx > 0 || result.errors > 0).map(({ target }) => target.label);

  console.log("");
  console.log("== Full path vs bare route ==");
  console.log(formatTable(results.map(({ target, result }) => ({ label: target.label, result }))));
  console.log(
    "(RSS peak and server CPU are this server process's; CPU 100% = one core; CPU µs/req = its CPU time per request. load 1m is " +
      `the machine's load average at the start->end of the run, on ${availableParallelism()} CPUs: other processes competing for them make req/s noisy)`,
  );
  console.log("");
  if (redisKeysAfterFull !== undefined)
    console.log(`counters: ${redisKeysAfterFull} Redis keys under ${redisPrefix} after the full-path run (buckets were counted)`);
  console.log(`full/bare throughput: ${ratio.toFixed(3)} (${(ratio * 100).toFixed(1)}%)`);
  // The server's CPU per request barely moves when other processes compete for the CPUs,
  // so bare/full of it shows what the throughput ratio tends to when the server is the limit.
  const cpuRatio = bareResult.serverCpuMicrosPerRequest / fullResult.serverCpuMicrosPerRequest;
  console.log(
    `server CPU per request: full ${fullResult.serverCpuMicrosPerRequest.toFixed(0)} µs, bare ${bareResult.serverCpuMicrosPerRequest.toFixed(0)} µs ` +
      `(bare/full ${cpuRatio.toFixed(3)}: the throughput ratio when the server's own CPU is the only limit)`,
  );
  console.log(`target: full path keeps >= ${TARGET_RATIO * 100}% of the bare route's throughput: ${pass ? "PASS" : "FAIL"}`);
  if (notReal) console.log(`\n${notReal}`);
  if (invalid.length > 0) console.log(`\nINVALID: ${invalid.join(" and ")} answered non-2xx or failed requests; the figures do not measure the intended path`);

  return { full: fullResult, bare: bareResult, ratio, cpuRatio, pass, invalid };
}

function loadOptions(target: Target, settings: BenchSettings, signal: AbortSignal) {
  const { durationSeconds, connections, pipelining } = settings;
  return { url: target.url, headers: target.headers, durationSeconds, connections, pipelining, signal };
}

function pathOf(target: Target): string {
  const url = new URL(target.url);
  return `${url.pathname}${url.search}`;
}

function printHeader(routes: RoutesUnderTest, settings: BenchSettings, notReal: string | undefined): void {
  const { storage, full, bare, poolSize } = routes;
  const embedded = storage.databaseUrl === undefined;
  if (notReal) console.log(`\n${notReal}\n`);
  console.log("Threadline bench: full authenticated request path vs a bare route, same SQL, same pool");
  console.log(`  full:     GET ${pathOf(full)} with a Bearer key (enterprise plan: buckets counted, never hit)`);
  console.log(`  bare:     GET ${pathOf(bare)} (h3 route calling listTagRows directly: no auth, limits, tRPC or zod)`);
  console.log(`  database: ${storage.database.description}; pool of ${poolSize} shared by both routes`);
  console.log(`  counters: ${storage.counters.description}`);
  console.log(
    `  load:     autocannon in a child process, ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per route, one route after the other`,
  );
  console.log(
    `  then:     job queue throughput (${settings.jobs.jobs} jobs batched by ${settings.jobs.batchSize} on ${settings.jobs.runners} runners; ` +
      `${settings.jobs.unbatchedJobs} unbatched), and POST /v1/tags without / with a fresh / with a replayed Idempotency-Key`,
  );
  console.log(
    `  then:     GET /v1/x/users/{handle} and /v1/x/posts/{id} cached vs uncached (${settings.lookups.misses} lookups one at a time each way, ` +
      `then cached under autocannon for ${settings.lookups.durationSeconds} s), and POST /v1/tools/rephrase vs the model alone (credit step and counters)`,
  );
  const sharers = ["server", "autocannon", ...(embedded ? [] : ["PostgreSQL"]), ...(storage.redisUrl ? ["Redis"] : [])];
  console.log(`  machine:  node ${process.version}, ${availableParallelism()} CPUs shared by ${sharers.join(", ")}`);
  console.log("");
}

/** The prominent warning when the run is not on the real target (PostgreSQL + Redis), else undefined. */
function notTheTarget(storage: BenchStorage): string | undefined {
  const missing: string[] = [];
  if (storage.database.source === "embedded-pglite") missing.push(`${storage.database.description} instead of PostgreSQL`);
  if (storage.counters.source === "in-memory") missing.push(`${storage.counters.description} instead of Redis`);
  if (missing.length === 0) return undefined;
  return `!!! THESE FIGURES ARE NOT THE REAL-POSTGRESQL TARGET: ${missing.join("; ")} !!!`;
}
