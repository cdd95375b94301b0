/**
 * `npm run bench:guard`: the short form of the benchmark's ratio targets that CI runs
 * (docs/operations.md "Benchmarks"), so a change that makes the shared paths slower fails CI
 * instead of landing quietly. Each figure is a ratio measured in this run on the same machine, never an
 * absolute time, and fails only when it falls more than 25% short of its target:
 *   - request path: full authenticated `GET /v1/tags` over the bare route's throughput
 *     (target >= 0.75, fails below 0.5625);
 *   - MCP: a tool call's mean latency under load over the same REST call's (target <= 1.2,
 *     fails above 1.5);
 *   - publisher: posts published per second over no-op jobs per second in the same lane shape
 *     (guard_publisher.ts; target >= 0.07: the bench's 10,000 posts in 5 s are 2,000 posts/s,
 *     about 0.07 of the ~30,000 no-op jobs/s of that lane on the 2-core reference machine;
 *     fails below 0.0525).
 * Rounds alternate the routes (full, bare, full, bare ...) so load from elsewhere falls on both.
 * The best round decides: a change that slows a path slows it in every round, while the other
 * work of a shared machine (CI runs on a 2-core VM) only ever slows some rounds, one side more
 * than the other; the median is printed beside it. Env: GUARD_ROUNDS (default 5),
 * GUARD_SECONDS (default 3), GUARD_POSTS (posts per publisher round, default 3,000).
 */
import { runBenchProcess } from "./bench_process.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import { runLoad } from "./load_run.ts";
import { loadOf, mcpTarget, setUpRoutes, type Target } from "./routes_under_test.ts";
import { settingsFromEnv } from "./bench_settings.ts";
import { GUARD_SLACK, type GuardFigure, bestRound, guardHolds, guardLimit, median } from "./guard_figures.ts";
import { startPublisherRounds } from "./guard_publisher.ts";

const ROUNDS = Number(process.env.GUARD_ROUNDS ?? 5);
const SECONDS = Number(process.env.GUARD_SECONDS ?? 3);
const POSTS = Number(process.env.GUARD_POSTS ?? 3000);
/** The publisher's ratio target (see the header). */
const PUBLISHER_TARGET = 0.07;

await runBenchProcess(guard);

async function guard(cleanup: CleanupStack, signal: AbortSignal): Promise<number> {
  const settings = settingsFromEnv();
  const routes = await setUpRoutes(cleanup, signal);
  console.log(`bench guard: ${ROUNDS} rounds of ${SECONDS} s per route; ${routes.storage.database.description}; ${routes.storage.counters.description}`);
  const load = (target: Target) => loadOf(target, settings, SECONDS, signal);
  const mcp = mcpTarget(routes);
  // Warm every route once: the first requests build caches (tool catalog, key cache, JIT).
  for (const target of [routes.full, routes.bare, mcp]) await runLoad({ ...load(target), durationSeconds: 2 });

  const pathRounds: number[] = [];
  const mcpRounds: number[] = [];
  const publisherRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const full = await runLoad(load(routes.full));
    const bare = await runLoad(load(routes.bare));
    const tool = await runLoad(load(mcp));
    for (const [label, result] of [
      ["full", full],
      ["bare", bare],
      ["mcp", tool],
    ] as const) {
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors: the guard measures nothing`);
    }
    pathRounds.push(full.requestsPerSecond / bare.requestsPerSecond);
    mcpRounds.push(tool.latencyAverageMs / full.latencyAverageMs);
  }
  if (routes.storage.databaseUrl) {
    const publisher = await startPublisherRounds({ sql: routes.sql, databaseUrl: routes.storage.databaseUrl, keyPrefix: "gpk_" });
    cleanup.push("stop the publisher's job runner", () => publisher.stop());
    // The first round warms the runner's thread and is not counted.
    for (let round = 0; round <= ROUNDS; round++) {
      signal.throwIfAborted();
      const figures = await publisher.round(POSTS);
      console.log(
        `publisher ${round === 0 ? "warm-up" : `round ${round}`}: ${figures.postsPerSecond.toFixed(0)} posts/s, ${figures.noopJobsPerSecond} no-op jobs/s, ratio ${figures.ratio.toFixed(3)}`,
      );
      if (round > 0) publisherRounds.push(figures.ratio);
    }
  } else {
    console.log("publisher: SKIPPED: needs PostgreSQL (a job thread with its own pool), got the embedded database");
  }
  const figures: GuardFigure[] = [
    { name: "request path: full/bare throughput", value: bestRound(pathRounds, "higher"), target: 0.75, better: "higher", rounds: pathRounds },
    { name: "MCP: tool call / REST mean latency", value: bestRound(mcpRounds, "lower"), target: 1.2, better: "lower", rounds: mcpRounds },
    ...(publisherRounds.length > 0
      ? [
          {
            name: "publisher: posts/s over no-op jobs/s",
            value: bestRound(publisherRounds, "higher"),
            target: PUBLISHER_TARGET,
            better: "higher" as const,
            rounds: publisherRounds,
          },
        ]
      : []),
  ];
  let failed = 0;
  for (const figure of figures) {
    const holds = guardHolds(figure);
    if (!holds) failed++;
    const bound = `${figure.better === "higher" ? ">=" : "<="} ${guardLimit(figure).toFixed(3)}`;
    console.log(
      `${holds ? "ok  " : "FAIL"} ${figure.name}: best round ${figure.value.toFixed(3)} (target ${figure.target}, guard ${bound}; median ${median(figure.rounds).toFixed(3)}; rounds ${figure.rounds.map((r) => r.toFixed(3)).join(", ")})`,
    );
  }
  console.log(failed === 0 ? "bench guard: every ratio holds" : `bench guard: ${failed} ratio(s) fell more than ${GUARD_SLACK * 100}% short of target`);
  return failed === 0 ? 0 : 1;
}
