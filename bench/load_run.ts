/**
 * One autocannon run in a child process, so the load generator does not share the
 * server's event loop (on a 2-core machine the server keeps a core to itself), while
 * this process samples its own RSS, CPU time and event-loop utilisation.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const AUTOCANNON = fileURLToPath(new URL("../node_modules/.bin/autocannon", import.meta.url));

/** What to run. */
export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  durationSeconds: number;
  connections: number;
  pipelining: number;
  /** Default GET. */
  method?: "GET" | "POST";
  /** The request body (sent as is). */
  body?: string;
  /**
   * autocannon's `-I`: every `[<id>]` in the request (body and headers alike) becomes one
   * id unique to that request. An argument may not END with `[<id>]`: autocannon's
   * argument parser (subarg) takes a trailing `]` for the end of a sub-argument list.
   */
  idReplacement?: boolean;
  /** Kills the child when aborted. */
  signal: AbortSignal;
}

/** The figures of one run. */
export interface LoadResult {
  requestsPerSecond: number;
  totalRequests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyAverageMs: number;
  non2xx: number;
  /** Answers by HTTP status, e.g. `{ "201": 5000, "409": 3 }`. */
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  /** Highest RSS of this (the server's) process sampled every 50 ms during the run. */
  rssPeakBytes: number;
  rssStartBytes: number;
  /** This process's CPU time over the run's wall time (100 = one core busy). */
  serverCpuPercent: number;
  /** This process's CPU time per completed request, in µs: less sensitive than req/s to other processes competing for the CPUs. */
  serverCpuMicrosPerRequest: number;
  /** Share of the run the server's event loop was busy (0..1). */
  eventLoopUtilization: number;
  /** The machine's 1-minute load average at the start and the end (other processes make figures noisy). */
  loadAverage: [start: number, end: number];
}

/** The fields of autocannon's `--json` result that the bench reads. */
interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  duration: number;
}

/** Runs autocannon against `options.url` and samples this process meanwhile. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    "--json",
    "-c",
    String(options.connections),
    "-d",
    String(options.durationSeconds),
    "-p",
    String(options.pipelining),
    ...(options.method ? ["-m", options.method] : []),
    ...(options.body !== undefined ? ["-b", options.body] : []),
    ...(options.idReplacement ? ["-I"] : []),
    ...Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}=${value}`]),
    options.url,
  ];
  const loadStart = loadavg()[0];
  const rssStartBytes = process.memoryUsage.rss();
  let rssPeakBytes = rssStartBytes;
  const sampler = setInterval(() => {
    rssPeakBytes = Math.max(rssPeakBytes, process.memoryUsage.rss());
  }, 50);
  const cpuStart = process.cpuUsage();
  const eluStart = performance.eventLoopUtilization();
  const wallStart = performance.now();
  try {
    const output = await runChild(args, options.signal, (options.durationSeconds + 30) * 1000);
    const wallMs = performance.now() - wallStart;
    const cpu = process.cpuUsage(cpuStart);
    const elu = performance.eventLoopUtilization(eluStart);
    const result = parseResult(output);
    return {
      requestsPerSecond: result.requests.average,
      totalRequests: result.requests.total,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      latencyAverageMs: result.latency.average,
      non2xx: result.non2xx,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count])),
      errors: result.errors,
      timeouts: result.timeouts,
      durationSeconds: result.duration,
      rssPeakBytes,
      rssStartBytes,
      serverCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
      serverCpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
      eventLoopUtilization: elu.utilization,
      loadAverage: [loadStart, loadavg()[0]],
    };
  } finally {
    clearInterval(sampler);
  }
}

function runChild(args: string[], signal: AbortSignal, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], signal, killSignal: "SIGKILL" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`autocannon did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, killedBy) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`autocannon exited with ${code ?? killedBy}\n${stderr.trim()}`));
    });
  });
}

function parseResult(output: string): AutocannonJson {
  // --json prints newline-delimited JSON; the result is the last line.
  const line = output.trim().split("\n").at(-1) ?? "";
  let parsed: AutocannonJson;
  try {
    parsed = JSON.parse(line) as AutocannonJson;
  } catch {
    throw new Error(`Cannot read autocannon's result: "${line.slice(0, 200)}"`);
  }
  if (typeof parsed?.requests?.average !== "number" || typeof parsed?.latency?.p99 !== "number") {
    throw new Error(`Unexpected autocannon result: "${line.slice(0, 200)}"`);
  }
  return parsed;
}

/**
 * Several runs of one route as one row: totals summed, rates and means weighted by requests,
 * percentiles the request-weighted mean of the runs' (an approximation: autocannon reports
 * no histogram), peaks the highest, load averages from the first start to the last end.
 */
export function combinedLoad(runs: LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error("combinedLoad needs at least one run");
  const requests = runs.reduce((sum, run) => sum + run.totalRequests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.durationSeconds, 0);
  const weighted = (pick: (run: LoadResult) => number) => (requests === 0 ? 0 : runs.reduce((sum, run) => sum + pick(run) * run.totalRequests, 0) / requests);
  const statusCodes: Record<string, number> = {};
  for (const run of runs) for (const [status, count] of Object.entries(run.statusCodes)) statusCodes[status] = (statusCodes[status] ?? 0) + count;
  return {
    requestsPerSecond: seconds === 0 ? 0 : requests / seconds,
    totalRequests: requests,
    latencyP50Ms: Math.round(weighted((run) => run.latencyP50Ms) * 10) / 10,
    latencyP99Ms: Math.round(weighted((run) => run.latencyP99Ms) * 10) / 10,
    latencyAverageMs: weighted((run) => run.latencyAverageMs),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    statusCodes,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    timeouts: runs.reduce((sum, run) => sum + run.timeouts, 0),
    durationSeconds: seconds,
    rssPeakBytes: Math.max(...runs.map((run) => run.rssPeakBytes)),
    rssStartBytes: runs[0].rssStartBytes,
    serverCpuPercent: weighted((run) => run.serverCpuPercent),
    serverCpuMicrosPerRequest: weighted((run) => run.serverCpuMicrosPerRequest),
    eventLoopUtilization: weighted((run) => run.eventLoopUtilization),
    loadAverage: [runs[0].loadAverage[0], runs[runs.length - 1].loadAverage[1]],
  };
}
