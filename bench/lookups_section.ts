/**
 * The live lookups section of `npm run bench`: `GET /v1/x/users/{handle}` and
 * `GET /v1/x/posts/{id}` answered from the 15-minute lookup cache vs read from the
 * network, on the full-path server.
 *
 * Every lookup costs 1 enrichment unit (enterprise: 10,000 per clock minute per owner)
 * and every cache miss also 1 of the owner's 300 live lookups per UTC day (spec Limits 8,
 * core/lookups/live_lookup.ts). So a timed autocannon run of misses is impossible; both
 * are measured one request at a time over the same number of lookups (misses: distinct
 * handles or posts; hits: one handle or post after one priming request), each run with a
 * fresh user, and the hits once more under autocannon, in runs short enough for one
 * owner's enrichment bucket (a fresh user each). The lookup cache is per process and not
 * per owner, so a user that never primed it still hits.
 */
import type { Services } from "../core/context.ts";
import { createContextInner } from "../core/context.ts";
import { consumeAllowances } from "../core/limits/allowances.ts";
import { LIVE_LOOKUPS } from "../core/limits/allowance_catalog.ts";
import type { LookupSettings } from "./bench_settings.ts";
import { runLoad, type LoadResult } from "./load_run.ts";
import { formatColumns, formatTable, resultFigures, round } from "./report.ts";
import { seedSectionUser, type SectionUser } from "./seed.ts";
import { formatLoad, formatMicros, sequentialFigures, timeSequential, type SequentialResult } from "./sequential_timing.ts";

/** What the section needs from the routes under test. */
export interface LookupTarget {
  services: Services;
  /** The full-path server, `http://127.0.0.1:<port>`. */
  origin: string;
  keyPrefix: string;
}

interface LookupKind {
  name: "users" | "posts";
  request: string;
  /** The path looked up again and again (cache hits). */
  cachedPath: string;
  /** One distinct path per miss. */
  missPaths: string[];
}

interface KindResult {
  kind: LookupKind;
  cached: SequentialResult;
  uncached: SequentialResult;
  load: LoadResult;
  /** Live lookups each owner used today: the priming one 1, the misses' one `misses`, the load's 0. */
  liveUsed: { cached: number | undefined; uncached: number | undefined; load: number | undefined };
  /** Answers other than 200 in the sequential loops, by status. */
  statuses: Record<string, number>;
}

/** Measures both lookups, prints the section and returns its `BENCH_RESULT` figures and validity. */
export async function measureLookups(target: LookupTarget, settings: LookupSettings, notReal: string | undefined, signal: AbortSignal) {
  const { network } = target.services;
  console.log("");
  console.log(
    `Live lookups: cached vs uncached on the full path; ${settings.misses} lookups one at a time each way, then the cached one ` +
      `under autocannon, ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured`,
  );
  const kinds = await lookupKinds(target.services, settings.misses);
  const results: KindResult[] = [];
  for (const kind of kinds) {
    signal.throwIfAborted();
    results.push(await measureKind(target, kind, settings, signal));
  }

  const invalid = results.flatMap((result) => problemsOf(result, settings.misses).map((problem) => `${result.kind.request}: ${problem}`));
  console.log("");
  console.log("== Live lookups: cached vs uncached ==");
  console.log(formatSequentialTable(results));
  console.log(formatTable(results.map(({ kind, load }) => ({ label: `${kind.name} cached, autocannon`, result: load }))));
  console.log(
    "(one at a time: one request in flight, timed in this process around fetch, the client included; autocannon: " +
      `${settings.durationSeconds} s only, with a fresh user: each lookup costs 1 enrichment unit of the owner's 10,000 per minute)`,
  );
  for (const { kind, cached, uncached, load } of results) {
    console.log(
      `speed-up of the cache, ${kind.name}, one at a time: req/s x${(cached.callsPerSecond / uncached.callsPerSecond).toFixed(2)}, ` +
        `p50 x${(uncached.p50Us / cached.p50Us).toFixed(2)}, p99 x${(uncached.p99Us / cached.p99Us).toFixed(2)}; ` +
        `cached under autocannon ${load.requestsPerSecond.toFixed(0)} req/s = x${(load.requestsPerSecond / uncached.callsPerSecond).toFixed(1)} the uncached one-at-a-time rate`,
    );
  }
  console.log(
    `network: ${network.info.kind} (the embedded default, also with PostgreSQL: this build has no X API adapter). A miss reads no ` +
      "remote service: it costs the live-allowance counters, the simulated world's in-process generation and its SQL reads of stored " +
      "writes, not X's round trip (typically 100+ ms), so the real speed-up of the cache is far larger",
  );
  console.log("target: none given (figures only)");
  if (notReal) console.log(`(${notReal.replace(/^!!! | !!!$/g, "")})`);
  for (const problem of invalid) console.log(`INVALID: ${problem}`);

  const summary = {
    network: network.info.kind,
    misses: settings.misses,
    connections: settings.connections,
    duration_s: settings.durationSeconds,
    warmup_s: settings.warmupSeconds,
    valid: invalid.length === 0,
    real_target: notReal === undefined,
    ...Object.fromEntries(results.map((result) => [result.kind.name, kindFigures(result)])),
  };
  return { summary, valid: invalid.length === 0 };
}

/**
 * The demo handle and post (cached) and distinct ones for the misses: the handle's
 * followers, the posts of its timeline (read through the network port, which counts
 * nothing; it also leaves the simulated world's own caches warm, as a busy server's are).
 */
async function lookupKinds(services: Services, misses: number): Promise<LookupKind[]> {
  const { network } = services;
  const fixtures = network.demoFixtures?.();
  if (!fixtures) throw new Error(`The "${network.info.kind}" network has no demo fixtures to look up`);
  const user = await network.userByUsername(fixtures.user_handle);

  const handles: string[] = [];
  for (let cursor: string | undefined, first = true; handles.length < misses && (first || cursor); first = false) {
    const page = await network.followers(user.id, { limit: 1000, cursor });
    handles.push(...page.items.filter((follower) => !follower.protected && follower.username !== user.username).map((follower) => follower.username));
    cursor = page.nextCursor;
  }
  const postIds: string[] = [];
  for (let cursor: string | undefined, first = true; postIds.length < misses && (first || cursor); first = false) {
    const page = await network.timeline(user.id, { limit: 100, cursor, excludeReposts: true });
    postIds.push(...page.items.map((post) => post.id).filter((id) => id !== fixtures.post_id));
    cursor = page.nextCursor;
  }
  if (handles.length < misses || postIds.length < misses) {
    throw new Error(`Found ${handles.length} handles and ${postIds.length} posts to look up, not ${misses} of each; lower BENCH_LOOKUP_MISSES`);
  }
  return [
    {
      name: "users",
      request: "GET /v1/x/users/{handle}",
      cachedPath: `/v1/x/users/${fixtures.user_handle}`,
      missPaths: handles.slice(0, misses).map((handle) => `/v1/x/users/${handle}`),
    },
    {
      name: "posts",
      request: "GET /v1/x/posts/{id}",
      cachedPath: `/v1/x/posts/${fixtures.post_id}`,
      missPaths: postIds.slice(0, misses).map((id) => `/v1/x/posts/${id}`),
    },
  ];
}

async function measureKind(target: LookupTarget, kind: LookupKind, settings: LookupSettings, signal: AbortSignal): Promise<KindResult> {
  const seed = (label: string) => seedSectionUser(target.services.sql, { keyPrefix: target.keyPrefix, label });
  const [cachedUser, uncachedUser, warmUser, loadUser] = [
    await seed(`${kind.name}-hits`),
    await seed(`${kind.name}-misses`),
    await seed(`${kind.name}-warm`),
    await seed(`${kind.name}-load`),
  ];
  const statuses: Record<string, number> = {};
  const get = async (path: string, user: SectionUser) => {
    const response = await fetch(`${target.origin}${path}`, { headers: { Authorization: `Bearer ${user.key}` } });
    await response.arrayBuffer();
    if (response.status !== 200) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return response.status === 200;
  };

  // The priming request is the only miss of the cached runs.
  if (!(await get(kind.cachedPath, cachedUser))) throw new Error(`Check of GET ${kind.cachedPath} failed: ${JSON.stringify(statuses)}`);
  console.log(`${kind.name}: ${kind.missPaths.length} cached lookups of ${kind.cachedPath}, one at a time ...`);
  const cached = await timeSequential(kind.missPaths.length, () => get(kind.cachedPath, cachedUser));
  signal.throwIfAborted();
  console.log(`${kind.name}: ${kind.missPaths.length} uncached lookups (distinct ${kind.name}), one at a time ...`);
  const uncached = await timeSequential(kind.missPaths.length, (i) => get(kind.missPaths[i], uncachedUser));
  signal.throwIfAborted();
  const options = { url: `${target.origin}${kind.cachedPath}`, connections: settings.connections, pipelining: 1, signal };
  if (settings.warmupSeconds > 0) {
    console.log(`${kind.name}: cached lookups under autocannon, warming up for ${settings.warmupSeconds} s ...`);
    const warm = await runLoad({ ...options, headers: { Authorization: `Bearer ${warmUser.key}` }, durationSeconds: settings.warmupSeconds });
    if (warm.non2xx > 0 || warm.errors > 0) console.log(`  warm-up saw ${JSON.stringify(warm.statusCodes)} and ${warm.errors} errors`);
  }
  console.log(`${kind.name}: cached lookups under autocannon, measuring for ${settings.durationSeconds} s ...`);
  const load = await runLoad({ ...options, headers: { Authorization: `Bearer ${loadUser.key}` }, durationSeconds: settings.durationSeconds });
  const liveUsed = {
    cached: await liveLookupsUsed(target.services, cachedUser.ownerId),
    uncached: await liveLookupsUsed(target.services, uncachedUser.ownerId),
    load: await liveLookupsUsed(target.services, loadUser.ownerId),
  };
  return { kind, cached, uncached, load, liveUsed, statuses };
}

/** The owner's live lookups used today (a charge of 0 units only reads the counter). */
async function liveLookupsUsed(services: Services, ownerId: string): Promise<number | undefined> {
  const outcome = await consumeAllowances(createContextInner({ services }), ownerId, [{ spec: LIVE_LOOKUPS, units: 0 }]);
  return outcome.status === "unverifiable" ? undefined : outcome.allowances[0]?.used;
}

function problemsOf({ cached, uncached, load, liveUsed, statuses }: KindResult, misses: number): string[] {
  const problems: string[] = [];
  if (cached.failed + uncached.failed > 0) problems.push(`one-at-a-time runs answered ${JSON.stringify(statuses)} (status: count)`);
  if (load.non2xx > 0 || load.errors > 0) {
    const hint = load.statusCodes["429"] ? " (429: the owner's 100,000 enrichment units a minute ran out; lower BENCH_LOOKUP_DURATION)" : "";
    problems.push(`autocannon saw ${JSON.stringify(load.statusCodes)} and ${load.errors} errors${hint}`);
  }
  // The counts prove which requests hit the cache: only the priming request and the misses may charge the allowance.
  const expected = { cached: 1, uncached: misses, load: 0 };
  for (const run of ["cached", "uncached", "load"] as const) {
    if (liveUsed[run] !== expected[run]) problems.push(`the ${run} run's owner used ${liveUsed[run]} live lookups, expected ${expected[run]}`);
  }
  return problems;
}

function formatSequentialTable(results: KindResult[]): string {
  const header = ["lookup, one at a time", "requests", "req/s", "p50", "p99", "avg", "non-200", "live lookups used", "load 1m"];
  const body = results.flatMap(({ kind, cached, uncached, liveUsed }) =>
    (
      [
        ["cached", cached, liveUsed.cached],
        ["uncached", uncached, liveUsed.uncached],
      ] as const
    ).map(([label, result, used]) => [
      `${kind.name} ${label}`,
      String(result.calls),
      result.callsPerSecond.toFixed(1),
      formatMicros(result.p50Us),
      formatMicros(result.p99Us),
      formatMicros(result.avgUs),
      String(result.failed),
      label === "cached" ? `${used ?? "?"} (the priming miss)` : String(used ?? "?"),
      formatLoad(result),
    ]),
  );
  return formatColumns(header, body);
}

function kindFigures({ kind, cached, uncached, load, liveUsed }: KindResult) {
  return {
    request: kind.request,
    cached_one_at_a_time: sequentialFigures(cached),
    uncached_one_at_a_time: sequentialFigures(uncached),
    cached_autocannon: { ...resultFigures(load), status_codes: load.statusCodes },
    speedup_one_at_a_time: {
      requests_per_second: round(cached.callsPerSecond / uncached.callsPerSecond, 2),
      latency_p50: round(uncached.p50Us / cached.p50Us, 2),
      latency_p99: round(uncached.p99Us / cached.p99Us, 2),
    },
    live_lookups_used: liveUsed,
  };
}
