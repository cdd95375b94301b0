/**
 * The operations routes, outside `/v1` and without a key (ARCHITECTURE: Operations):
 * `GET /healthz` (the process answers), `GET /readyz` (database reachable, Redis reachable
 * when configured, the newest migration this code knows recorded; why a check failed only
 * for the metrics token), `GET /metrics`
 * (Prometheus text; 404 unless enabled, 401 without the token when one is set).
 */
import { timingSafeEqual } from "node:crypto";
import type { H3, H3Event } from "h3";
import type { Services } from "../../core/context.ts";
import { migrationsApplied } from "../postgres/migrate.ts";
import { ping } from "../postgres/connection_queries.ts";
import type { ThreadlineMetrics } from "../observability/threadline_metrics.ts";

/** How long one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

/** Who may read the metrics. */
export interface MetricsAccess {
  metrics?: ThreadlineMetrics;
  /** Bearer token required on `GET /metrics` (`METRICS_TOKEN`). */
  token?: string;
}

/** Mounts `/healthz`, `/readyz` and `/metrics` on `app`. */
export function mountOpsRoutes(app: H3, services: Services, access: MetricsAccess): void {
  app.get("/healthz", () => Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } }));
  // Anyone may probe; only the metrics token's holder reads why a check failed (error texts
  // name hosts, users and versions).
  app.get("/readyz", (event) => readiness(services, access.token !== undefined && bearerMatches(event.req.headers.get("authorization"), access.token)));
  app.get("/metrics", (event) => metricsResponse(event, access));
}

async function readiness(services: Services, detailed: boolean): Promise<Response> {
  const checks: Record<string, string> = {};
  const run = async (name: string, check: () => Promise<string>) => {
    try {
      checks[name] = await withTimeout(check(), `${name} did not answer within ${CHECK_TIMEOUT_MS} ms`);
    } catch (error) {
      checks[name] = detailed ? `failed: ${String((error as Error)?.message ?? error).slice(0, 200)}` : "failed";
    }
  };
  await Promise.all([
    run("database", async () => {
      await ping(services.sql);
      return "ok";
    }),
    run("redis", async () => {
      if (!services.allowanceCounters.ping) return "not configured";
      await services.allowanceCounters.ping();
      return "ok";
    }),
  ]);
  // Migrations are read only from a reachable database (else the same outage twice).
  if (checks.database === "ok") {
    await run("migrations", async () => {
      const state = await migrationsApplied(services.sql);
      if (!state.ok) throw new Error(`the newest migration is ${state.expected}; the database has ${state.recorded ?? "none"}`);
      return "ok";
    });
  }
  const failed = Object.entries(checks)
    .filter(([, value]) => value.startsWith("failed"))
    .map(([name]) => name);
  const body = failed.length === 0 ? { status: "ok", checks } : { status: "unavailable", failed, checks };
  return Response.json(body, { status: failed.length === 0 ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

async function metricsResponse(event: H3Event, access: MetricsAccess): Promise<Response> {
  const { metrics, token } = access;
  if (!metrics) return Response.json({ error: { code: "not_found", message: "Metrics are off (METRICS_ENABLED, METRICS_TOKEN)" } }, { status: 404 });
  if (token !== undefined && !bearerMatches(event.req.headers.get("authorization"), token)) {
    return Response.json(
      { error: { code: "unauthorized", message: "GET /metrics needs the metrics token as a Bearer token" } },
      { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } },
    );
  }
  return new Response(await metrics.registry.metrics(), { headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" } });
}

/** Compares in constant time, so the token cannot be guessed a byte at a time. */
function bearerMatches(header: string | null, token: string): boolean {
  const sent = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function withTimeout<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
