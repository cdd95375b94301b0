/**
 * `npm run soak`: the scale-out proof (README "Operations"). Three `threadline serve` processes
 * on one PostgreSQL and Redis (both started here, throwaway) behind HAProxy on loopback, under a
 * mixed load for SOAK_MINUTES (default 10; 2 for a quick run): REST reads and writes of
 * SOAK_USERS users (default 4), posts and threads coming due every few seconds, DM campaigns,
 * dataset collections, AI calls spending credits, each user's webhook to a local receiver and
 * an SSE reader of `GET /v1/events` per user that reconnects with `Last-Event-ID`. Every fifth
 * of the run one process is SIGKILLed and started again; once PostgreSQL is restarted and once
 * Redis is stopped for 20 s. After the load, once the due work has drained, the audit
 * (soak_audit.ts) checks that nothing was lost or doubled. Prints throughput, p50/p99 latency
 * through the balancer, lateness and the audit's counts, then `SOAK_RESULT <json>`; exits 1 on
 * any audit failure.
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { runBenchProcess } from "./bench_process.ts";
import { hasLocalPostgres, startLocalPostgres } from "./local_postgres.ts";
import { localRedisServer, startLocalRedis, type LocalRedis } from "./local_redis.ts";
import { seedSectionUser } from "./seed.ts";
import { createServerGroup, haproxyExecutable, startBalancer } from "./soak_stack.ts";
import { startSseReader, startWebhookReceiver, type SseRecord } from "./soak_observers.ts";
import { runSoakLoad, type SoakUser } from "./soak_load.ts";
import { auditSoak } from "./soak_audit.ts";
import { waitFor } from "./processes.ts";
import { createPopulation } from "../adapters/x/simulated/population.ts";
import { DEFAULT_NETWORK_SEED } from "../adapters/x/open_network.ts";
import { DEFAULT_WORLD_USERS } from "../adapters/x/simulated/simulated_network.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const USERS = Number(process.env.SOAK_USERS ?? 4);
const SERVERS = 3;
const REDIS_OUTAGE_MS = 20_000;
/** How long the due work (the last posts come due a minute after the load) may take to drain. */
const DRAIN_MS = 5 * 60_000;

void runBenchProcess(async (cleanup, signal) => {
  const haproxy = haproxyExecutable();
  const redisServer = localRedisServer();
  if (!hasLocalPostgres() || !redisServer || !haproxy) throw new Error("The soak needs PostgreSQL 15, redis-server and haproxy installed (Debian packages)");
  const durationMs = MINUTES * 60_000;
  const started = Date.now();
  const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  console.log(
    `Soak: ${SERVERS} servers behind HAProxy, ${USERS} users, ${MINUTES} min of load; a kill every ${(durationMs / 5 / 1000).toFixed(0)} s, one PostgreSQL restart, Redis down ${REDIS_OUTAGE_MS / 1000} s`,
  );

  const pg = await startLocalPostgres();
  cleanup.push("PostgreSQL", pg.stop, pg.orphanSteps);
  let redis: LocalRedis = await startLocalRedis(redisServer);
  cleanup.push("Redis", () => redis.stop(), redis.orphanSteps);
  const redisPort = Number(new URL(redis.url).port);
  const dir = await mkdtemp(join(tmpdir(), "tl-soak-"));
  cleanup.push("soak directory", () => rm(dir, { recursive: true, force: true }), [{ kind: "remove", path: dir }]);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: pg.adminUrl,
    REDIS_URL: redis.url,
    REDIS_PREFIX: "tl:soak:",
    OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    SHUTDOWN_TIMEOUT_MS: "5000",
    DATABASE_POOL_SIZE: "8",
    LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? "error",
    MEDIA_DIR: join(dir, "media"),
  };
  delete env.NODE_TEST_CONTEXT;
  const group = await createServerGroup(SERVERS, env);
  cleanup.push("servers", () => group.stopAll(), []);
  const demoFile = join(dir, "demo.json");
  await group.start(0, demoFile);
  await Promise.all([1, 2].map((index) => group.start(index)));
  const world = JSON.parse(await readFile(demoFile, "utf8"));
  log(`servers on ports ${group.slots.map((slot) => slot.port).join(", ")}`);

  const sql = postgres(pg.adminUrl, { max: 4, onnotice: () => {} });
  cleanup.push("audit pool", () => sql.end({ timeout: 5 }), []);
  const users: SoakUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const label = `soak${i}`;
    const seeded = await seedSectionUser(sql as never, { keyPrefix: "sxk_", label });
    // postgres.js hands a bigint id over as a string: a number, as the audit compares it with events' owners.
    users.push({ label, ...seeded, userId: Number(seeded.userId) });
  }

  const balancer = await startBalancer(
    haproxy,
    group.slots.map((slot) => slot.port),
  );
  cleanup.push("HAProxy", () => balancer.stop(), [{ kind: "kill", pid: balancer.pid }]);
  const receiver = await startWebhookReceiver();
  cleanup.push("webhook receiver", () => receiver.close(), []);
  log(`HAProxy on ${balancer.url}, webhook receiver on ${receiver.base}`);

  const hookPaths = new Map<number, string>();
  for (const user of users) {
    const path = `/hooks/${user.label}`;
    const answer = await fetch(`${balancer.url}/v1/webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: `${receiver.base}${path}` }),
    });
    if (answer.status !== 201) throw new Error(`Registering ${user.label}'s webhook answered ${answer.status}: ${await answer.text()}`);
    hookPaths.set(user.userId, path);
  }
  const [{ baseline }] = await sql<{ baseline: number }[]>`select coalesce(max(seq), 0)::int as baseline from events`;
  const readers = new Map<number, SseRecord>();
  for (const user of users) readers.set(user.userId, startSseReader(user.label, balancer.url, user.key, baseline, 20_000));
  cleanup.push("SSE readers", async () => {
    for (const reader of readers.values()) await reader.stop();
  }, []);

  const pop = createPopulation(DEFAULT_NETWORK_SEED, DEFAULT_WORLD_USERS);
  const dmRecipients: string[] = [];
  for (let i = pop.anchorCount + 200; i < pop.size && dmRecipients.length < 3000; i++) {
    if (pop.canDm[i] === 1 && pop.isProtected[i] === 0) dmRecipients.push(pop.ids[i]);
  }

  // The faults, on their schedule while the load runs.
  const loadStop = new AbortController();
  // Every paced loop of every user waits on it.
  setMaxListeners(0, loadStop.signal, signal);
  signal.addEventListener("abort", () => loadStop.abort(), { once: true });
  const faults: string[] = [];
  const at = (ms: number, what: string, fault: () => Promise<void>) =>
    sleep(ms, loadStop.signal).then(async () => {
      if (loadStop.signal.aborted) return;
      const begun = Date.now();
      log(`${what} ...`);
      await fault();
      faults.push(`${what} (${((Date.now() - begun) / 1000).toFixed(1)} s)`);
      log(`${what}: done in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
    });
  const kills = [1, 2, 3, 4].map((k) =>
    at((k * durationMs) / 5, `SIGKILL server ${(k - 1) % SERVERS} and start it again`, async () => {
      await group.kill((k - 1) % SERVERS);
      // A start during the Redis outage or the database restart may fail: tried again until it listens.
      for (let attempt = 1; ; attempt++) {
        try {
          await group.start((k - 1) % SERVERS);
          break;
        } catch (error) {
          if (attempt >= 10 || signal.aborted) throw error;
          log(`server ${(k - 1) % SERVERS} did not start (${(error as Error).message.split("\n")[0]}); trying again`);
          await sleep(3_000, signal);
        }
      }
    }),
  );
  const pgRestart = at(0.3 * durationMs, "restart PostgreSQL", () => pg.restart());
  const redisOutage = at(0.5 * durationMs, `stop Redis for ${REDIS_OUTAGE_MS / 1000} s`, async () => {
    await redis.stop();
    await sleep(REDIS_OUTAGE_MS, signal);
    redis = await startLocalRedis(redisServer, { port: redisPort });
    cleanup.push("Redis (started again)", () => redis.stop(), redis.orphanSteps);
  });
  const faultsDone = Promise.all([...kills, pgRestart, redisOutage]);

  const loadStart = Date.now();
  const stopTimer = setTimeout(() => loadStop.abort(), durationMs);
  const figures = await runSoakLoad(
    balancer.url,
    users,
    { dmRecipients, datasetTarget: world.x.large_post_id },
    { readEveryMs: 250, tagEveryMs: 2_000, postEveryMs: 3_000, campaignEveryMs: 20_000, datasetEveryMs: 45_000, aiEveryMs: 3_000 },
    loadStop.signal,
  );
  clearTimeout(stopTimer);
  const loadSeconds = (Date.now() - loadStart) / 1000;
  await faultsDone;
  log(`load stopped after ${loadSeconds.toFixed(0)} s: ${figures.requests} requests; draining the due work ...`);

  const accounts = users.map((user) => user.ownerId);
  const owners = users.map((user) => user.userId);
  let drained = "";
  await waitFor(
    "the due work to drain",
    async () => {
      if (signal.aborted) throw signal.reason;
      const [state] = await sql<
        { posts: number; dms: number; unqueued: number; deliveries: number; datasets: number; last_seq: Record<string, number> | null }[]
      >`
        select (select count(*)::int from scheduled_posts where account_id in ${sql(accounts)} and status = 'scheduled') as posts,
               (select count(*)::int from dm_messages where account_id in ${sql(accounts)} and status in ('pending', 'sending')) as dms,
               -- Events not yet turned into deliveries: waiting for their seq, or past an endpoint's cursor.
               (select count(*)::int from events where owner_id in ${sql(owners)} and seq is null)
                 + (select count(*)::int from webhooks w where w.owner_id in ${sql(owners)} and w.enabled
                     and w.cursor_seq < (select coalesce(max(e.seq), 0) from events e where e.owner_id = w.owner_id)) as unqueued,
               (select count(*)::int from webhook_deliveries d join webhooks w on w.id = d.webhook_id
                 where w.owner_id in ${sql(owners)} and d.status = 'pending') as deliveries,
               (select count(*)::int from datasets where account_id in ${sql(accounts)} and status = 'collecting') as datasets,
               (select jsonb_object_agg(owner_id, seq) from (select owner_id, max(seq) as seq from events
                 where owner_id in ${sql(owners)} and seq is not null group by owner_id) last) as last_seq`.catch(() => [undefined]);
      if (!state) return false;
      const behind = owners.filter((owner) => (readers.get(owner)!.lastSeq ?? 0) < (state.last_seq?.[owner] ?? 0)).length;
      drained =
        `${state.posts} posts scheduled, ${state.dms} DMs unsent, ${state.unqueued} events or endpoints not fanned out, ` +
        `${state.deliveries} deliveries pending, ${state.datasets} datasets collecting, ${behind} readers behind`;
      return state.posts + state.dms + state.unqueued + state.deliveries + state.datasets + behind === 0;
    },
    DRAIN_MS,
    2_000,
  ).catch(() => log(`not drained after ${DRAIN_MS / 1000} s: ${drained}`));
  log(`drained: ${drained}`);
  // A last moment for deliveries in flight to reach the receiver, then the readers stop.
  await sleep(3_000, signal);
  for (const reader of readers.values()) await reader.stop();

  const checks = await auditSoak(sql, {
    users,
    baselineSeq: baseline,
    deliveries: receiver.deliveries,
    hookPaths,
    readers,
    creditsCharged: figures.creditsCharged,
  });

  const sorted = [...figures.latenciesMs].sort((a, b) => a - b);
  const quantile = (q: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : 0);
  console.log("");
  console.log(`Faults: ${faults.join("; ")}`);
  console.log(
    `Load: ${figures.requests} requests in ${loadSeconds.toFixed(0)} s (${(figures.requests / loadSeconds).toFixed(1)} req/s) through HAProxy; ` +
      `latency p50 ${quantile(0.5)} ms, p99 ${quantile(0.99)} ms; statuses ${JSON.stringify(figures.statuses)}`,
  );
  console.log(`Failed answers: ${JSON.stringify(figures.errors)}`);
  console.log(
    `Made: ${figures.postsCreated} posts, ${figures.campaignsCreated} DM campaigns, ${figures.datasetsCreated} datasets, ${figures.aiCalls} AI calls; server starts ${group.slots.map((slot) => slot.starts).join("/")}`,
  );
  for (const check of checks) {
    console.log(`${check.failures.length === 0 ? "PASS" : "FAIL"} ${check.name}: ${JSON.stringify(check.counts)}`);
    for (const failure of check.failures.slice(0, 10)) console.log(`    ${failure}`);
    if (check.failures.length > 10) console.log(`    ... and ${check.failures.length - 10} more`);
  }
  const passed = checks.every((check) => check.failures.length === 0);
  console.log(
    `SOAK_RESULT ${JSON.stringify({
      minutes: MINUTES,
      requests: figures.requests,
      throughput_rps: Math.round((figures.requests / loadSeconds) * 10) / 10,
      latency_ms: { p50: quantile(0.5), p99: quantile(0.99) },
      statuses: figures.statuses,
      faults,
      checks: Object.fromEntries(checks.map((check) => [check.name, { pass: check.failures.length === 0, ...check.counts }])),
      pass: passed,
    })}`,
  );
  return passed ? 0 : 1;
});

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
