/**
 * The MCP section of `npm run bench` (docs/mcp.md): a tool call's latency against the same
 * REST call (target: within 1.2x), and `tools/list`'s latency. The call is
 * `tools/call tags_list {limit: 20}` against `GET /v1/tags?limit=20`, the request the
 * path section loads, on the full-path server with its key: both under autocannon (the
 * target is judged on the mean latency it sees, with the server's CPU per request
 * beside it), and one request at a time, alternating the two, with the client in this
 * process (printed for reference: it counts the client's own work too).
 */
import type { BenchSettings } from "./bench_settings.ts";
import { combinedLoad, runLoad, type LoadResult } from "./load_run.ts";
import { median } from "./guard_figures.ts";
import { formatTable, resultFigures, round } from "./report.ts";
import type { RoutesUnderTest } from "./routes_under_test.ts";
import { formatMicros, sequentialFigures, timeAlternating, timeSequential } from "./sequential_timing.ts";

/** A tool call may take at most this multiple of the REST call's latency. */
const TARGET_LATENCY_RATIO = 1.2;

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 1000);

/** Alternating load rounds per route (BENCH_MCP_ROUNDS), sharing the section's load duration. */
const LOAD_ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 3);

/** Measures, prints the section and returns its `BENCH_RESULT` figures and validity. */
export async function measureMcp(routes: RoutesUnderTest, settings: BenchSettings, signal: AbortSignal) {
  const restUrl = routes.full.url;
  const mcpUrl = `${routes.fullOrigin}/v1/mcp`;
  const auth = routes.full.headers;
  const mcpHeaders = { ...auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const limit = Number(new URL(restUrl).searchParams.get("limit") ?? 20);
  const callBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tags_list", arguments: { limit } } });
  const listBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

  console.log("");
  console.log(
    `MCP tool calls: tools/call tags_list vs GET ${new URL(restUrl).pathname}?limit=${limit}, ${CALLS} calls one at a time each (alternating), then autocannon`,
  );
  const rest = () =>
    fetch(restUrl, { headers: auth }).then(async (response) => {
      await response.text();
      return response.status === 200;
    });
  const tool = () =>
    fetch(mcpUrl, { method: "POST", headers: mcpHeaders, body: callBody }).then(async (response) => {
      const body = await response.json();
      return response.status === 200 && body.result && !body.result.isError;
    });
  const list = () =>
    fetch(mcpUrl, { method: "POST", headers: mcpHeaders, body: listBody }).then(async (response) => {
      const body = await response.json();
      return response.status === 200 && Array.isArray(body.result?.tools);
    });
  // Warm both paths (the tool catalog is built on the first MCP request).
  for (let i = 0; i < 50; i++) await Promise.all([rest(), tool(), list()]);
  // Alternating call by call, so load from other processes falls on both alike.
  const [restTimes, toolTimes] = await timeAlternating(CALLS, [rest, tool]);
  const [restAgain, toolAgain] = await timeAlternating(CALLS, [tool, rest]).then(([toolRun, restRun]) => [restRun, toolRun]);
  const listTimes = await timeSequential(Math.min(CALLS, 300), () => list());

  const restP50 = (restTimes.p50Us + restAgain.p50Us) / 2;
  const toolP50 = (toolTimes.p50Us + toolAgain.p50Us) / 2;
  const sequentialRatio = toolP50 / restP50;

  // Under load in alternating rounds (REST, tool, REST, tool ...), so a load swing on the
  // machine falls on both alike; each row sums its rounds, and the median round's ratio decides.
  const rounds = LOAD_ROUNDS;
  const load = {
    durationSeconds: Math.max(1, Math.round(settings.durationSeconds / rounds)),
    connections: settings.connections,
    pipelining: settings.pipelining,
    signal,
  };
  const restRounds: LoadResult[] = [];
  const toolRounds: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    restRounds.push(await runLoad({ ...load, url: restUrl, headers: auth }));
    toolRounds.push(await runLoad({ ...load, url: mcpUrl, method: "POST", headers: mcpHeaders, body: callBody }));
  }
  const loads = [
    { label: "REST GET /v1/tags", result: combinedLoad(restRounds) },
    { label: "MCP tools/call", result: combinedLoad(toolRounds) },
  ];
  const [restLoad, toolLoad] = loads.map(({ result }) => result);
  // Judged on the latency autocannon sees from its own process. The one-at-a-time figures
  // run the client in the server's process, so they also count the client's own work,
  // which is larger for a POST with a body than for a GET; they are printed beside it.
  const roundRatios = restRounds.map((rest, i) => toolRounds[i].latencyAverageMs / rest.latencyAverageMs);
  const ratio = median(roundRatios);
  const pass = ratio <= TARGET_LATENCY_RATIO;

  console.log("");
  console.log("== MCP: a tool call vs the same REST call ==");
  console.log(
    `one at a time, client in the server's process: REST p50 ${formatMicros(restP50)} (runs ${formatMicros(restTimes.p50Us)}, ${formatMicros(restAgain.p50Us)})`,
  );
  console.log(
    `  tool p50 ${formatMicros(toolP50)} (runs ${formatMicros(toolTimes.p50Us)}, ${formatMicros(toolAgain.p50Us)}): ${sequentialRatio.toFixed(2)}x, the client's own work included`,
  );
  console.log(`tools/list p50 ${formatMicros(listTimes.p50Us)}, p99 ${formatMicros(listTimes.p99Us)}`);
  console.log(formatTable(loads));
  console.log(
    `server CPU per request under load: REST ${restLoad.serverCpuMicrosPerRequest.toFixed(0)} µs, tool ${toolLoad.serverCpuMicrosPerRequest.toFixed(0)} µs ` +
      `(${(toolLoad.serverCpuMicrosPerRequest / restLoad.serverCpuMicrosPerRequest).toFixed(2)}x)`,
  );
  console.log(
    `target: a tool call's latency within ${TARGET_LATENCY_RATIO}x of the REST call's (mean under autocannon, ${rounds} alternating rounds): ` +
      `${toolLoad.latencyAverageMs.toFixed(2)} ms vs ${restLoad.latencyAverageMs.toFixed(2)} ms; rounds ${roundRatios.map((r) => r.toFixed(2)).join(", ")}, ` +
      `median ${ratio.toFixed(2)}x ${pass ? "PASS" : "FAIL"}`,
  );

  const failed =
    [restTimes, toolTimes, restAgain, toolAgain, listTimes].some((result) => result.failed > 0) ||
    loads.some(({ result }) => result.non2xx > 0 || result.errors > 0);
  if (failed) console.log("INVALID: a measured call did not answer as expected");
  return {
    target_latency_ratio: TARGET_LATENCY_RATIO,
    latency_ratio: round(ratio, 3),
    sequential_latency_ratio: round(sequentialRatio, 3),
    pass,
    valid: !failed,
    rest_p50_us: round(restP50, 0),
    tool_p50_us: round(toolP50, 0),
    tools_list: sequentialFigures(listTimes),
    rest_sequential: [sequentialFigures(restTimes), sequentialFigures(restAgain)],
    tool_sequential: [sequentialFigures(toolTimes), sequentialFigures(toolAgain)],
    rest_load: resultFigures(restLoad),
    tool_load: resultFigures(toolLoad),
    cpu_per_request_ratio: round(toolLoad.serverCpuMicrosPerRequest / restLoad.serverCpuMicrosPerRequest, 3),
  };
}
