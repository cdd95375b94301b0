/**
 * `npm run bench:guard`: the short form of the benchmark's ratio targets that CI runs
 * (docs/operations.md "Benchmarks"), so a change that makes the shared paths slower fails CI
 * instead of landing quietly. Each figure is a ratio measured in this run on the same machine, never an
 * absolute time, and fails only when it falls more than 25% short of its target:
 *   - request path: full authenticated `GET /v1/tags` over the bare route's throughput
 *     (target >= 0.75, fails below 0.5625);
 *   - MCP: a tool call's mean latency under load over the same REST call's (target <= 1.2,
 *     fails above 1.5).
 * The publisher joins once its own target holds (docs/operations.md "Benchmarks").
 * Rounds alternate the routes (full, bare, full, bare ...) so load from elsewhere falls on both,
 * and the median round decides. Env: GUARD_ROUNDS (default 3), GUARD_SECONDS (default 3).
 */
import { runBenchProcess } from "./bench_process.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import { runLoad } from "./load_run.ts";
import { loadOf, mcpTarget, setUpRoutes, type Target } from "./routes_under_test.ts";
import { settingsFromEnv } from "./bench_settings.ts";
import { GUARD_SLACK, type GuardFigure, guardHolds, guardLimit, median } from "./guard_figures.ts";

const ROUNDS = Number(process.env.GUARD_ROUNDS ?? 3);
const SECONDS = Number(process.env.GUARD_SECONDS ?? 3);

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
  const figures: GuardFigure[] = [
    { name: "request path: full/bare throughput", value: median(pathRounds), target: 0.75, better: "higher", rounds: pathRounds },
    { name: "MCP: tool call / REST mean latency", value: median(mcpRounds), target: 1.2, better: "lower", rounds: mcpRounds },
  ];
  let failed = 0;
  for (const figure of figures) {
    const holds = guardHolds(figure);
    if (!holds) failed++;
    const bound = `${figure.better === "higher" ? ">=" : "<="} ${guardLimit(figure).toFixed(3)}`;
    console.log(
      `${holds ? "ok  " : "FAIL"} ${figure.name}: ${figure.value.toFixed(3)} (target ${figure.target}, guard ${bound}; rounds ${figure.rounds.map((r) => r.toFixed(3)).join(", ")})`,
    );
  }
  console.log(failed === 0 ? "bench guard: every ratio holds" : `bench guard: ${failed} ratio(s) fell more than ${GUARD_SLACK * 100}% short of target`);
  return failed === 0 ? 0 : 1;
}
