/**
 * The operations section of `npm run bench` (issue 10, target: logging and metrics cost
 * under 5% of throughput): the full path (`GET /v1/tags?limit=20` with a key) served three
 * ways on the same services and pool, under autocannon in ABBA order (means compared):
 *   - `no wrapper`: the h3 app's own fetch (no request id, log or metrics at all);
 *   - `ops off`: the instance's fetch with LOG_LEVEL=silent and metrics off (the default of tests);
 *   - `ops on`: one JSON line per request at info (pino, synchronous, to /dev/null so the
 *     terminal is not what is measured) and every Prometheus metric recorded.
 * Run it alone with `BENCH_SECTIONS=operations npm run bench`.
 */
import type { AnyRouter } from "@trpc/server";
import { pino } from "pino";
import { appRouter } from "../routers/index.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { observedFetch } from "../adapters/http/observed_fetch.ts";
import { createThreadlineMetrics } from "../adapters/observability/threadline_metrics.ts";
import type { CleanupStack } from "./cleanup_stack.ts";
import type { RoutesUnderTest } from "./routes_under_test.ts";
import type { BenchSettings } from "./bench_settings.ts";
import { runLoad, type LoadResult } from "./load_run.ts";
import { serveFetch } from "./serve_fetch.ts";
import { formatTable, resultFigures, round } from "./report.ts";

/** The most throughput logging and metrics may cost. */
const TARGET_COST = 0.05;

/** Measures the three servings; prints the section and returns its `BENCH_RESULT` figures. */
export async function measureOperations(routes: RoutesUnderTest, settings: BenchSettings, cleanup: CleanupStack, signal: AbortSignal) {
  const { services } = routes;
  const metrics = createThreadlineMetrics(services.sql);
  const plainApp = createHttpApp(appRouter as AnyRouter, services);
  const onApp = createHttpApp(appRouter as AnyRouter, { ...services, telemetry: metrics.telemetry }, { metrics: { metrics } });
  const servings = {
    "no wrapper": (request: Request) => plainApp.fetch(request),
    "ops off": observedFetch(plainApp, { logger: pino({ level: "silent" }) }),
    "ops on": observedFetch(onApp, { logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true })), metrics }),
  };
  console.log("");
  console.log(
    `Operations: ${routes.full.label} with request logs and metrics on vs off, ${settings.connections} connections, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured each`,
  );
  // ABBA order (off, on, on, off): the machine drifts during a run (other processes, the
  // pool warming, Redis keys), and a fixed order would book that drift to whichever ran last.
  const order: (keyof typeof servings)[] = ["no wrapper", "ops off", "ops on", "ops on", "ops off"];
  const urls = new Map<string, string>();
  for (const [label, fetch] of Object.entries(servings)) {
    const served = await serveFetch(fetch);
    cleanup.push(`close the ${label} server`, () => served.close());
    urls.set(label, `${served.url}${new URL(routes.full.url).pathname}${new URL(routes.full.url).search}`);
  }
  const results: { label: string; result: LoadResult }[] = [];
  for (const label of order) {
    signal.throwIfAborted();
    const load = { url: urls.get(label)!, headers: routes.full.headers, connections: settings.connections, pipelining: settings.pipelining, signal };
    if (settings.warmupSeconds > 0) await runLoad({ ...load, durationSeconds: settings.warmupSeconds });
    console.log(`${label}: measuring for ${settings.durationSeconds} s ...`);
    results.push({ label, result: await runLoad({ ...load, durationSeconds: settings.durationSeconds }) });
  }
  // The mean of a label's runs.
  const rps = (label: string) => {
    const runs = results.filter((entry) => entry.label === label);
    return runs.reduce((sum, entry) => sum + entry.result.requestsPerSecond, 0) / runs.length;
  };
  const cost = 1 - rps("ops on") / rps("ops off");
  const wrapperCost = 1 - rps("ops off") / rps("no wrapper");
  console.log("");
  console.log("== Operations: request logs and metrics ==");
  console.log(formatTable(results));
  console.log(
    `cost of logs + metrics (ops on vs ops off): ${round(cost * 100, 1)}% of throughput (target < ${TARGET_COST * 100}%): ${cost < TARGET_COST ? "PASS" : "FAIL"}`,
  );
  console.log(`cost of the wrapper alone (ops off vs no wrapper): ${round(wrapperCost * 100, 1)}%`);
  const valid = results.every(({ result }) => result.non2xx === 0 && result.errors === 0);
  if (!valid) console.log("INVALID: a run answered non-2xx or failed requests");
  return {
    valid,
    cost_ratio: round(cost, 4),
    wrapper_cost_ratio: round(wrapperCost, 4),
    pass: cost < TARGET_COST,
    requests_per_second: Object.fromEntries(Object.keys(servings).map((label) => [label, round(rps(label), 1)])),
    runs: results.map(({ label, result }) => ({ label, ...resultFigures(result) })),
  };
}
