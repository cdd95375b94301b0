/**
 * `tsx bench/profile.ts [full|bare|both|mcp|ai]` (default both; `mcp` profiles the MCP tool call
 * `tools/call tags_list` against the full path it wraps, `ai` an AI call, `POST /v1/tools/rephrase`): the same setup as `npm run
 * bench`, each route loaded by autocannon in a child process while this (the server's)
 * process records a V8 CPU profile through node:inspector. Prints where the busy time
 * went per request, and for `both` the components that make the full path's extra CPU.
 * Writes each `.cpuprofile` (open it in Chrome DevTools) to the temp dir.
 * Env: BENCH_DURATION (default 10), BENCH_CONNECTIONS (default 50), BENCH_WARMUP (default 3).
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CleanupStack } from "./cleanup_stack.ts";
import { runBenchProcess } from "./bench_process.ts";
import { type BenchSettings, settingsFromEnv } from "./bench_settings.ts";
import { loadOf, mcpTarget, type RoutesUnderTest, setUpRoutes, type Target } from "./routes_under_test.ts";
import { runLoad } from "./load_run.ts";
import { type CpuProfile, type ProfileSummary, type Share, summariseProfile } from "./cpu_profile_summary.ts";

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Steps of the request path whose inclusive (synchronous) CPU is reported. */
const STEPS = [
  "callOperation@adapters/http/rest_routes.ts",
  "createContextInner@core/context.ts",
  "authenticate@core/auth/authenticate.ts",
  "isWellFormedApiKey@core/auth/api_key_format.ts",
  "hashApiKey@core/auth/api_key_format.ts",
  "chargeRequestBuckets@core/limits/request_buckets.ts",
  "consume@adapters/counters/redis_counters.ts",
  "setRateLimitHeaders@core/limits/rate_limit_headers.ts",
  "listTags@core/tags/tags.ts",
  "jsonResponse@adapters/http/responses.ts",
  "callRecursive@@trpc/server",
  "_objectSpread2@@trpc/server",
  "streamBody@srvx",
  "get signal@srvx",
];

/**
 * Components that do the same job on both routes, compared as one row: the rows-to-tags
 * mapping, and serialising the body into a Response (jsonResponse's `new Response` on
 * the full path; h3's prepareResponse on the bare route, which also routes both).
 */
const TWINS: Record<string, string> = {
  "core/tags/tags.ts": "rows to tags (core/tags/tags.ts | bench/bare_app.ts)",
  "bench/bare_app.ts": "rows to tags (core/tags/tags.ts | bench/bare_app.ts)",
  "adapters/http/responses.ts": "JSON body + Response (adapters/http/responses.ts | h3)",
  "node_modules/h3": "JSON body + Response (adapters/http/responses.ts | h3)",
};

interface Profiled {
  target: Target;
  requests: number;
  requestsPerSecond: number;
  summary: ProfileSummary;
  file: string;
}

await runBenchProcess(profile);

async function profile(cleanup: CleanupStack, signal: AbortSignal): Promise<number> {
  const which = process.argv[2] ?? "both";
  if (!["full", "bare", "both", "mcp", "ai"].includes(which)) throw new Error(`Unknown route "${which}"; use full, bare, both, mcp or ai`);
  const settings = settingsFromEnv();
  const routes = await setUpRoutes(cleanup, signal);
  console.log(`Storage: ${routes.storage.database.description}; ${routes.storage.counters.description}`);
  const session = new Session();
  session.connect();
  cleanup.push("disconnect the inspector", () => session.disconnect());
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });

  const targets =
    which === "both"
      ? [routes.full, routes.bare]
      : which === "mcp"
        ? [mcpTarget(routes), routes.full]
        : which === "ai"
          ? [aiTarget(routes), routes.full]
          : [which === "full" ? routes.full : routes.bare];
  const profiled: Profiled[] = [];
  for (const target of targets) {
    const one = await profileRoute(session, target, settings, signal);
    printSummary(one);
    profiled.push(one);
  }
  if (profiled.length === 2) printComparison(profiled[0], profiled[1]);
  return 0;
}

/** `POST /v1/tools/rephrase` with the bench user's write key (the ai_overhead section's call; about 1 credit each). */
function aiTarget(routes: RoutesUnderTest): Target {
  return {
    label: "ai rephrase",
    url: `${routes.fullOrigin}/v1/tools/rephrase`,
    method: "POST",
    headers: { Authorization: `Bearer ${routes.user.writeKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "concise", text: "Honestly, I just really think that we should basically ship the new onboarding flow this week." }),
  };
}

async function profileRoute(session: Session, target: Target, settings: BenchSettings, signal: AbortSignal): Promise<Profiled> {
  console.log(`\n${target.label}: warming up for ${settings.warmupSeconds} s, then profiling for ${settings.durationSeconds} s ...`);
  if (settings.warmupSeconds > 0) await runLoad(loadOf(target, settings, settings.warmupSeconds, signal));
  await session.post("Profiler.start");
  const result = await runLoad(loadOf(target, settings, settings.durationSeconds, signal));
  const { profile: recorded } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
  const file = join(tmpdir(), `threadline-${target.label.replace(/\W+/g, "-")}-${Date.now()}.cpuprofile`);
  await writeFile(file, JSON.stringify(recorded));
  return {
    target,
    requests: result.totalRequests,
    requestsPerSecond: result.requestsPerSecond,
    summary: summariseProfile(recorded, STEPS, PROJECT_ROOT),
    file,
  };
}

function printSummary({ target, requests, requestsPerSecond, summary, file }: Profiled): void {
  const perRequest = (summary.busyMs * 1000) / requests;
  console.log(
    `${target.label}: ${requestsPerSecond.toFixed(1)} req/s under the profiler, ${requests} requests, ${perRequest.toFixed(0)} µs of busy CPU per request`,
  );
  printShares("By component (nearest JS caller)", summary.byComponent, 20, requests);
  printShares("By function (self time)", summary.selfByFunction, 25, requests);
  if (target.label === "full path") printShares("Inclusive synchronous time of request-path steps", summary.inclusive, STEPS.length, requests);
  console.log(`  profile: ${file}`);
}

function printShares(title: string, shares: Share[], limit: number, requests: number): void {
  console.log(`  ${title} (share of busy time, µs per request):`);
  for (const share of shares.slice(0, limit)) {
    console.log(`    ${share.percent.toFixed(1).padStart(5)}%  ${((share.ms * 1000) / requests).toFixed(1).padStart(6)} µs  ${share.name}`);
  }
}

/** Per component, µs of CPU per request on each route and what the full path adds. */
function printComparison(full: Profiled, bare: Profiled): void {
  const perRequest = (profiled: Profiled) => {
    const us = new Map<string, number>();
    for (const share of profiled.summary.byComponent) {
      const name = TWINS[share.name] ?? share.name;
      us.set(name, (us.get(name) ?? 0) + (share.ms * 1000) / profiled.requests);
    }
    return us;
  };
  const fullUs = perRequest(full);
  const bareUs = perRequest(bare);
  const fullTotal = (full.summary.busyMs * 1000) / full.requests;
  const bareTotal = (bare.summary.busyMs * 1000) / bare.requests;
  const gap = fullTotal - bareTotal;
  const rows = [...new Set([...fullUs.keys(), ...bareUs.keys()])]
    .map((name) => ({ name, full: fullUs.get(name) ?? 0, bare: bareUs.get(name) ?? 0 }))
    .map((row) => ({ ...row, extra: row.full - row.bare }))
    .filter((row) => Math.abs(row.extra) >= 1)
    .sort((a, b) => b.extra - a.extra);
  console.log(
    `\nCPU per request: full ${fullTotal.toFixed(0)} µs, bare ${bareTotal.toFixed(0)} µs; the full path adds ${gap.toFixed(0)} µs (bare/full ${(bareTotal / fullTotal).toFixed(3)})`,
  );
  console.log(`  ${"component".padEnd(56)}   full µs   bare µs   extra µs   share of extra`);
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(56)} ${row.full.toFixed(1).padStart(8)}  ${row.bare.toFixed(1).padStart(8)}  ${row.extra.toFixed(1).padStart(9)}  ${((row.extra / gap) * 100).toFixed(1).padStart(8)}%`,
    );
  }
}
