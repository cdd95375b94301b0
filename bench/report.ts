/** The bench's printed table and its machine-readable result line. */
import type { LoadResult } from "./load_run.ts";

/** One measured route. */
export interface RouteFigures {
  label: string;
  result: LoadResult;
}

const MB = 1024 * 1024;

/** The results table, one row per route. */
export function formatTable(rows: RouteFigures[]): string {
  const header = [
    "route",
    "req/s",
    "p50 ms",
    "p99 ms",
    "avg ms",
    "requests",
    "non-2xx",
    "errors",
    "RSS peak MB",
    "server CPU",
    "CPU µs/req",
    "event loop",
    "load 1m",
  ];
  const body = rows.map(({ label, result }) => [
    label,
    result.requestsPerSecond.toFixed(1),
    String(result.latencyP50Ms),
    String(result.latencyP99Ms),
    result.latencyAverageMs.toFixed(2),
    String(result.totalRequests),
    String(result.non2xx),
    result.timeouts > 0 ? `${result.errors} (${result.timeouts} timeouts)` : String(result.errors),
    (result.rssPeakBytes / MB).toFixed(1),
    `${result.serverCpuPercent.toFixed(0)}%`,
    result.serverCpuMicrosPerRequest.toFixed(0),
    `${(result.eventLoopUtilization * 100).toFixed(0)}% busy`,
    result.loadAverage.map((load) => load.toFixed(1)).join("->"),
  ]);
  return formatColumns(header, body);
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function formatColumns(header: string[], body: string[][]): string {
  const widths = header.map((_, i) => Math.max(header[i].length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line)].join("\n");
}

/** The result figures as JSON-friendly numbers (MB and ms rounded for reading). */
export function resultFigures(result: LoadResult) {
  return {
    requests_per_second: round(result.requestsPerSecond, 1),
    total_requests: result.totalRequests,
    latency_p50_ms: result.latencyP50Ms,
    latency_p99_ms: result.latencyP99Ms,
    latency_avg_ms: round(result.latencyAverageMs, 2),
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration_s: result.durationSeconds,
    rss_start_mb: round(result.rssStartBytes / MB, 1),
    rss_peak_mb: round(result.rssPeakBytes / MB, 1),
    server_cpu_percent: round(result.serverCpuPercent, 1),
    server_cpu_us_per_request: round(result.serverCpuMicrosPerRequest, 1),
    event_loop_utilization: round(result.eventLoopUtilization, 3),
    load_average_1m: result.loadAverage.map((load) => round(load, 2)),
  };
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
