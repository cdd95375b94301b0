/**
 * The composition root: wires the adapters into the core's Services (database, migrated;
 * counters, key cache, docs, network, media, model, inspiration media library), the logger and the metrics, the HTTP
 * app, and the job runner. The one place that knows which adapter is in use: `createThreadline`
 * (mod.ts), and through it `serve`, call it; the job thread opens its ports with the
 * same wiring (open_ports.ts) from the plain-data settings this hands it.
 */
import type { AnyRouter } from "@trpc/server";
import type { H3 } from "h3";
import type { Services } from "../../core/context.ts";
import { systemClock } from "../../core/clock.ts";
import { migrate } from "../postgres/migrate.ts";
import { createKeyCache } from "../../core/ports/key_cache.ts";
import type { Counters } from "../../core/ports/counters.ts";
import { buildOpenApiDocument } from "../../core/docs/openapi.ts";
import { buildQuickReference } from "../../core/docs/quick_reference.ts";
import { buildHtmlReference } from "../../core/docs/html_reference.ts";
import { openDatabase, type Database } from "../postgres/open_database.ts";
import { createMemoryCounters } from "../counters/memory_counters.ts";
import { createRedisCounters } from "../counters/redis_counters.ts";
import { createFailOpenCounters } from "../counters/fail_open_counters.ts";
import { createFaultyCounters } from "../counters/faulty_counters.ts";
import { createHttpApp } from "../http/create_http_app.ts";
import { DEFAULT_STREAM_TIMING } from "../http/event_stream_response.ts";
import { observedFetch } from "../http/observed_fetch.ts";
import { faultsOf, mediaLibrarySettingsOf, type ThreadlineConfig, xConnectSettingsOf } from "./config.ts";
import { createXOAuthClient } from "../x/x_oauth_client.ts";
import { openMediaLibrary } from "../inspiration/open_media_library.ts";
import { createLookupCache } from "../../core/ports/lookup_cache.ts";
import { createHttpPageReader } from "../pages/http_page_reader.ts";
import { createGuardedOutbound } from "../outbound/guarded_get.ts";
import { withExampleDomains } from "../pages/example_domain_pages.ts";
import type { MediaStoreConfig } from "../media/open_media_store.ts";
import { openPorts, portSettingsOf, type Ports } from "./open_ports.ts";
import { openLogger, type Logger } from "../observability/open_logger.ts";
import { createThreadlineMetrics, type ThreadlineMetrics } from "../observability/threadline_metrics.ts";
import { migrateNetwork } from "../x/open_network.ts";
import { jobEventSink } from "../observability/job_event_sink.ts";
import type { JobRunner } from "../../jobs/index.ts";
import { startJobs, type StartJobsOptions } from "./start_jobs.ts";
import { createEventFeed } from "../../core/events/event_feed.ts";
import { DEFAULT_STREAM_LIMITS } from "../../core/events/stream_slots.ts";

/** The default of `SHUTDOWN_TIMEOUT_MS`: inside Kubernetes' default 30 s grace period, with room to release and close. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/** A running Threadline: services, the HTTP app and how to stop them. */
export interface Runtime {
  services: Services;
  database: Database;
  app: H3;
  /** The app with request ids, request logs and metrics around it: what serves requests. */
  fetch(request: Request): Promise<Response>;
  logger: Logger;
  /** Present when metrics are on (`METRICS_ENABLED`, `METRICS_TOKEN`). */
  metrics?: ThreadlineMetrics;
  /** The media store as plain data (defaults filled in), for job threads. */
  mediaConfig: MediaStoreConfig;
  /** Starts the job runner with this runtime's ports, logger and metrics (`overrides`: tests, the bench). */
  startJobs(overrides?: Partial<StartJobsOptions>): Promise<JobRunner>;
  close(): Promise<void>;
}

/** Opens everything `config` names and migrates the database. */
export async function openRuntime(router: AnyRouter, config: ThreadlineConfig): Promise<Runtime> {
  const faults = faultsOf(config);
  const logger = openLogger({ logger: config.logger, level: config.logLevel });
  // AI_BASE_URL picks the OpenAI-compatible client, else the local engine; THREADLINE_FAULTS=ai makes it fail.
  // MEDIA_STORE: local (default), s3 or none. Validated first: a configuration error must not leave a database open.
  const portSettings = portSettingsOf(config);
  // X_CLIENT_ID without a callback URL stops the start here, before anything opens.
  const xConnect = xConnectSettingsOf(config);
  // INSPIRATION_MEDIA_URL picks the hosted library, else the simulated one; no job reads it.
  const mediaLibrary = openMediaLibrary(mediaLibrarySettingsOf(config));
  // Embedded PGlite is one backend session, and pglite-socket interleaves the extended-
  // protocol messages of concurrent connections outside transactions (seen here as
  // `portal "" does not exist`), so the embedded pool is one pipelined connection.
  const poolSize = config.databaseUrl ? config.poolSize : 1;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize, loadDataDir: config.loadDataDir });
  const clock = config.clock ?? systemClock;
  let ports: Ports;
  try {
    await migrate(database.sql);
    // The simulated network's tables come from its own migrations, applied right after core's.
    await migrateNetwork(database.sql, portSettings.network);
    ports = await openPorts(database.sql, clock, portSettings);
  } catch (error) {
    await database.close();
    throw error;
  }
  const metrics = config.metricsEnabled || config.metricsToken ? createThreadlineMetrics(database.sql) : undefined;
  const requestCounters = openRequestCounters(config, faults.has("counters"), logger);
  const allowanceCounters = openAllowanceCounters(config, faults.has("counters"));
  const docs = lazyDocs(router, config.publicUrl);
  const streamTiming = { ...DEFAULT_STREAM_TIMING, ...config.eventStreamTiming };
  const outbound = createGuardedOutbound({ allowHosts: config.outboundAllowHosts, ca: config.outboundCa, timeoutMs: config.outboundTimeoutMs });
  const services: Services = {
    sql: database.sql,
    requestCounters,
    allowanceCounters,
    clock,
    faults,
    keyCache: createKeyCache(config.keyCacheTtlMs),
    settings: {
      keyPrefix: config.keyPrefix ?? "sxk_",
      baseUrl: config.publicUrl ? `${config.publicUrl.replace(/\/+$/, "")}/v1` : undefined,
      mcpWebhookTools: config.mcpWebhookTools ?? false,
      coverWaitMs: config.coverWaitMs,
      xMonthlyBudgetUsd: config.xMonthlyBudgetUsd,
      eventStreamLimits: {
        perKey: config.eventStreamLimits?.perKey ?? DEFAULT_STREAM_LIMITS.perKey,
        perUser: config.eventStreamLimits?.perUser ?? DEFAULT_STREAM_LIMITS.perUser,
      },
    },
    docs,
    model: ports.model,
    network: ports.network,
    media: ports.media,
    mediaLibrary,
    telemetry: metrics?.telemetry,
    lookupCache: createLookupCache(),
    outbound,
    webhookSender: ports.webhookSender,
    secretBox: ports.secretBox,
    xConnect: xConnect && { oauth: createXOAuthClient(xConnect), callbackUrl: xConnect.callbackUrl },
    pageReader: withExampleDomains(createHttpPageReader(outbound)),
    // One listener per process for every open event stream (a LISTEN on PostgreSQL).
    eventFeed: createEventFeed(database.sql, database.eventBell, { pollMs: streamTiming.pollMs }),
  };
  // Open event streams end when the runtime closes (before the database goes).
  const stopping = new AbortController();
  const streams = { stopping: stopping.signal, timing: streamTiming };
  const app = createHttpApp(router, services, { trustProxy: config.trustProxy, metrics: { metrics, token: config.metricsToken }, streams });
  const events = jobEventSink(logger, metrics);
  return {
    services,
    database,
    app,
    fetch: observedFetch(app, { logger, metrics }),
    logger,
    metrics,
    mediaConfig: ports.settings.media,
    startJobs: (overrides = {}) =>
      startJobs({
        // Job threads on PostgreSQL, this thread on embedded PGlite (start_jobs.ts).
        databaseUrl: config.databaseUrl,
        sql: database.sql,
        clock: config.clock,
        ports: ports.settings,
        deps: ports,
        events,
        stopTimeoutMs: config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        heapMb: config.jobThreadHeapMb,
        // bree's own messages (a job thread that died): text, with the error's stack when there is one.
        logger: {
          warn: (...args: unknown[]) => logger.warn({ err: args.find((arg) => arg instanceof Error) }, args.filter((arg) => typeof arg === "string").join(" ")),
          error: (...args: unknown[]) =>
            logger.error({ err: args.find((arg) => arg instanceof Error) }, args.filter((arg) => typeof arg === "string").join(" ")),
        },
        ...overrides,
      }),
    async close() {
      stopping.abort();
      await services.eventFeed.close();
      await ports.media?.close();
      await ports.close();
      await requestCounters.close();
      await allowanceCounters.close();
      await database.close();
    },
  };
}

/**
 * Request buckets fail open to a per-process limiter when Redis is unreachable
 * (ARCHITECTURE: Counters); `THREADLINE_FAULTS=counters` stands in for that outage.
 */
function openRequestCounters(config: ThreadlineConfig, faulty: boolean, logger: Logger): Counters {
  const local = createMemoryCounters();
  if (faulty) return createFailOpenCounters(createFaultyCounters(), local);
  if (!config.redisUrl) return local;
  let warned = false;
  return createFailOpenCounters(createRedisCounters({ url: config.redisUrl, prefix: config.redisPrefix }), local, (error) => {
    if (!warned) logger.warn({ err: error }, "Redis unreachable; request buckets fall back to this process");
    warned = true;
  });
}

/** Allowances and caps fail closed (spec rule 9): no fallback when Redis is unreachable. */
function openAllowanceCounters(config: ThreadlineConfig, faulty: boolean): Counters {
  if (faulty) return createFaultyCounters();
  if (!config.redisUrl) return createMemoryCounters();
  return createRedisCounters({ url: config.redisUrl, prefix: config.redisPrefix });
}

function lazyDocs(router: AnyRouter, publicUrl: string | undefined): Services["docs"] {
  let built: ReturnType<Services["docs"]> | undefined;
  return () => {
    if (!built) {
      const openapi = buildOpenApiDocument(router, { serverUrl: publicUrl });
      built = { openapi, markdown: buildQuickReference(openapi), html: buildHtmlReference(openapi) };
    }
    return built;
  };
}
