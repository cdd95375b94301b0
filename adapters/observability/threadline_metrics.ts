/**
 * The Prometheus metrics of one Threadline instance (docs/operations.md), in a registry of its own:
 * several instances share a process in tests and embedders, and prom-client's global
 * registry would mix them. Counters and histograms are this process's; the job gauges
 * are read from the jobs table at scrape time, so every process reports the queue as it is.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Sql } from "../../core/db/sql.ts";
import { countJobsByKindAndStatus } from "../../core/jobs/jobs_queries.ts";
import type { Telemetry } from "../../core/telemetry/telemetry.ts";
import type { JobEvent } from "../../core/jobs/job_events.ts";

/** An instance's metrics. */
export interface ThreadlineMetrics {
  registry: Registry;
  /** What the core reports (rate-limit refusals, credits). */
  telemetry: Telemetry;
  /** Counts one answered request. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** Counts what a job runner reported. */
  jobEvent(event: JobEvent): void;
}

/** Seconds from a few ms (a cached read) to a minute (a slow model call). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds from "on time" (the poll interval) to hours (a backlog or an outage). */
const LATENESS_BUCKETS = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 900, 3600];

/** Creates the registry and its metrics; `sql` feeds the job gauges. */
export function createThreadlineMetrics(sql: Sql): ThreadlineMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: "threadline_" });
  const requests = new Counter({
    name: "threadline_http_requests_total",
    help: "HTTP requests by route template, method and status",
    labelNames: ["route", "method", "status"],
    registers,
  });
  const latency = new Histogram({
    name: "threadline_http_request_duration_seconds",
    help: "HTTP request latency until the response headers",
    labelNames: ["route", "method"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rateLimited = new Counter({
    name: "threadline_rate_limited_total",
    help: "Requests refused with 429 rate_limited by a request bucket",
    labelNames: ["bucket"],
    registers,
  });
  const credits = new Counter({
    name: "threadline_credits_charged_total",
    help: "AI credits kept for calls, by procedure (refunds not subtracted)",
    labelNames: ["procedure"],
    registers,
  });
  const jobLag = new Histogram({
    name: "threadline_job_lag_seconds",
    help: "Seconds from a job's run_at to its claim",
    labelNames: ["kind"],
    buckets: LATENESS_BUCKETS,
    registers,
  });
  const jobFailures = new Counter({
    name: "threadline_job_failures_total",
    help: "Failed job attempts by kind; final=true when no retry is left",
    labelNames: ["kind", "final"],
    registers,
  });
  const lateness = new Histogram({
    name: "threadline_publisher_lateness_seconds",
    help: "Seconds between a post's scheduled time and its sent",
    buckets: LATENESS_BUCKETS,
    registers,
  });
  new Gauge({
    name: "threadline_jobs",
    help: "Jobs queued, running and failed by kind, read from the jobs table at scrape time",
    labelNames: ["kind", "status"],
    registers,
    async collect() {
      this.reset();
      for (const row of await countJobsByKindAndStatus(sql)) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  return {
    registry,
    telemetry: {
      rateLimited: (bucket) => rateLimited.inc({ bucket }),
      creditsCharged: (amount, procedure) => credits.inc({ procedure }, amount),
    },
    request(route, method, status, seconds) {
      requests.inc({ route, method, status });
      latency.observe({ route, method }, seconds);
    },
    jobEvent(event) {
      if (event.event === "claimed") jobLag.observe({ kind: event.kind }, event.lagSeconds);
      else if (event.event === "failed") jobFailures.inc({ kind: event.kind, final: String(event.final) });
      else if (event.event === "post_sent") lateness.observe(event.latenessSeconds);
    },
  };
}
