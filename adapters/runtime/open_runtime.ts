/**
 * Wires the adapters into the core's Services: database (migrated), counters, key
 * cache, docs, and the HTTP app. The one place that knows which adapter is in use.
 */
import type { AnyRouter } from "@trpc/server";
import type { H3 } from "h3";
import type { Services } from "../../core/context.ts";
import { systemClock } from "../../core/clock.ts";
import { migrate } from "../postgres/migrate.ts";
import { createKeyCache } from "../../core/auth/key_cache.ts";
import type { Counters } from "../../core/limits/counters.ts";
import { buildOpenApiDocument } from "../../core/docs/openapi.ts";
import { buildQuickReference } from "../../core/docs/quick_reference.ts";
import { buildHtmlReference } from "../../core/docs/html_reference.ts";
import { openDatabase, type Database } from "../postgres/open_database.ts";
import { createMemoryCounters } from "../counters/memory_counters.ts";
import { createRedisCounters } from "../counters/redis_counters.ts";
import { createFailOpenCounters } from "../counters/fail_open_counters.ts";
import { createFaultyCounters } from "../counters/faulty_counters.ts";
import { createHttpApp } from "../http/create_http_app.ts";
import { faultsOf, networkSettingsOf, type ThreadlineConfig } from "./config.ts";
import { openModel } from "../ai/open_model.ts";
import { createLookupCache } from "../../core/lookups/lookup_cache.ts";
import { createHttpPageReader } from "../pages/http_page_reader.ts";
import { withExampleDomains } from "../pages/example_domain_pages.ts";
import { migrateNetwork, openNetwork } from "../x/open_network.ts";
import { mediaStoreConfig, openMediaStore, type MediaStoreConfig } from "../media/open_media_store.ts";

/** A running Threadline: services, the HTTP app and how to stop them. */
export interface Runtime {
  services: Services;
  database: Database;
  app: H3;
  /** The media store as plain data (defaults filled in), for job worker threads. */
  mediaConfig: MediaStoreConfig;
  close(): Promise<void>;
}

/** Opens everything `config` names and migrates the database. */
export async function openRuntime(router: AnyRouter, config: ThreadlineConfig): Promise<Runtime> {
  const faults = faultsOf(config);
  // AI_BASE_URL picks the OpenAI-compatible client, else the local engine; THREADLINE_FAULTS=ai makes it fail.
  // Opened first: a configuration error must not leave a database open.
  const model = openModel(config, faults.has("ai"));
  // MEDIA_STORE: local (default), s3 or none; validated before the database opens.
  const mediaSettings = mediaStoreConfig(config);
  // Embedded PGlite is one backend session, and pglite-socket interleaves the extended-
  // protocol messages of concurrent connections outside transactions (seen here as
  // `portal "" does not exist`), so the embedded pool is one pipelined connection.
  const poolSize = config.databaseUrl ? config.poolSize : 1;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize });
  const clock = config.clock ?? systemClock;
  let network: Services["network"];
  let media: Awaited<ReturnType<typeof openMediaStore>>;
  try {
    await migrate(database.sql);
    // The simulated world unless X_API_BASE_URL and X_BEARER_TOKEN are set; THREADLINE_FAULTS=x makes it fail.
    // Its tables come from its own migrations, applied right after core's.
    await migrateNetwork(database.sql, networkSettingsOf(config));
    network = openNetwork({ sql: database.sql, clock, ...networkSettingsOf(config) });
    media = await openMediaStore(mediaSettings, database.sql);
  } catch (error) {
    await database.close();
    throw error;
  }
  const requestCounters = openRequestCounters(config, faults.has("counters"));
  const allowanceCounters = openAllowanceCounters(config, faults.has("counters"));
  const docs = lazyDocs(router, config.publicUrl);
  const services: Services = {
    sql: database.sql,
    requestCounters,
    allowanceCounters,
    clock,
    faults,
    keyCache: createKeyCache(config.keyCacheTtlMs),
    settings: { keyPrefix: config.keyPrefix ?? "sxk_", baseUrl: config.publicUrl ? `${config.publicUrl.replace(/\/+$/, "")}/v1` : undefined },
    docs,
    model,
    network,
    media: media.store,
    lookupCache: createLookupCache(),
    pageReader: withExampleDomains(createHttpPageReader({ allowPrivate: config.pageReaderAllowPrivate })),
  };
  const app = createHttpApp(router, services, { trustProxy: config.trustProxy });
  return {
    services,
    database,
    app,
    mediaConfig: media.config,
    async close() {
      await media.store?.close();
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
function openRequestCounters(config: ThreadlineConfig, faulty: boolean): Counters {
  const local = createMemoryCounters();
  if (faulty) return createFailOpenCounters(createFaultyCounters(), local);
  if (!config.redisUrl) return local;
  let warned = false;
  return createFailOpenCounters(createRedisCounters({ url: config.redisUrl, prefix: config.redisPrefix }), local, (error) => {
    if (!warned) console.warn("Redis unreachable; request buckets fall back to this process:", (error as Error).message);
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
