/** Threadline's configuration, and how the standalone server reads it from the environment. */
import type { XOAuthSettings } from "../x/x_oauth_client.ts";
import { parseEncryptionKey } from "../crypto/secret_box.ts";
import { readFileSync } from "node:fs";
import type { Clock } from "../../core/clock.ts";
import type { FaultName } from "../../core/faults.ts";
import { parseFaults } from "../../core/faults.ts";
import { type XPrices, xPricesOf } from "../../core/x_usage/x_prices.ts";
import type { NetworkSettings } from "../x/open_network.ts";
import type { ModelConfig } from "../ai/open_model.ts";
import type { MediaLibrarySettings } from "../inspiration/open_media_library.ts";
import type { Logger } from "../observability/open_logger.ts";

/** The model's configuration as plain (structured-clone safe) data, with `THREADLINE_FAULTS=ai` as `faulty`. */
export type ModelSettings = ModelConfig & { faulty?: boolean };

/** What `createThreadline(config)` accepts; every field is optional. */
export interface ThreadlineConfig {
  /** PostgreSQL 14+ URL. Absent: embedded PGlite under `dataDir`. */
  databaseUrl?: string;
  /** Redis URL for counters and X's rate windows shared across processes. Absent: in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key (default `tl:`). */
  redisPrefix?: string;
  /** Embedded data directory (default `.threadline`); `null` keeps the embedded database in memory. */
  dataDir?: string | null;
  /** Database pool size (default 10 for PostgreSQL, 4 embedded). */
  poolSize?: number;
  /** With `dataDir: null`: the in-memory database starts from this PGlite dump (`dumpDataDir()`), as tests start from a migrated one. */
  loadDataDir?: Blob;
  /** Prefix of issued API keys (default `sxk_`). */
  keyPrefix?: string;
  /** Public URL of the server (e.g. `https://api.example.com`), used in the OpenAPI `servers`. */
  publicUrl?: string;
  /** Trust `X-Forwarded-For` for the client address (only behind a proxy you control). */
  trustProxy?: boolean;
  /** Dependencies made to fail, for tests (`THREADLINE_FAULTS`). */
  faults?: Iterable<FaultName> | string;
  /** How long a key lookup may be cached, in ms (default 30 000; the spec's revocation bound is 60 s). */
  keyCacheTtlMs?: number;
  /** Run background jobs in this process from `start()` (default false: embedders and tests opt in; `serve` always runs them). */
  runJobs?: boolean;
  /**
   * Hosts outbound fetches (product pages, media from a URL) may reach although they resolve
   * to private or loopback addresses, and over http (`OUTBOUND_ALLOW_HOSTS`: a comma list of
   * `host` or `host:port`). For tests and private deployments.
   */
  outboundAllowHosts?: readonly string[] | string;
  /** Extra CA certificates (PEM) outbound https fetches trust besides Node's roots (`OUTBOUND_CA_FILE` names a PEM file). */
  outboundCa?: string;
  /** Bound on one outbound fetch, redirects and body included (`OUTBOUND_TIMEOUT_MS`, default 10 000). */
  outboundTimeoutMs?: number;
  /** Replaces the system clock (tests). */
  clock?: Clock;
  /** The pino logger to write to (embedders, tests). Absent: one at `logLevel` on stdout. */
  logger?: Logger;
  /** Level of the instance's own logger (`LOG_LEVEL`: fatal, error, warn, info, debug, trace, silent; default info). */
  logLevel?: string;
  /** Offer the `webhooks` tools over MCP (`MCP_WEBHOOK_TOOLS=true`; default off: an agent reading network content cannot register a receiver). */
  mcpWebhookTools?: boolean;
  /** How long a cover request waits for its image before `504 upstream_timeout` (`COVER_WAIT_MS`, default 120 000; `Prefer: respond-async` answers `202` at once). */
  coverWaitMs?: number;
  /** Serve Prometheus metrics at `GET /metrics` (`METRICS_ENABLED=true`; default off: 404). */
  metricsEnabled?: boolean;
  /** Bearer token `GET /metrics` requires (`METRICS_TOKEN`); setting it also turns metrics on. */
  metricsToken?: string;
  /** How long `close()` (and `serve` on SIGTERM) lets requests and running jobs finish before releasing their jobs (`SHUTDOWN_TIMEOUT_MS`, default 25 000). */
  shutdownTimeoutMs?: number;
  /** Old-generation heap cap of each job thread in MB (`JOB_THREAD_HEAP_MB`, default 512; PostgreSQL mode). */
  jobThreadHeapMb?: number;
  /**
   * Event streams (`GET /v1/events` as `text/event-stream`): poll interval, heartbeat after
   * silence, key re-check interval and lifetime of a connection (default 1 000, 15 000, 30 000
   * and 3 600 000 ms; tests shorten them).
   */
  eventStreamTiming?: { pollMs?: number; heartbeatMs?: number; keyCheckMs?: number; lifetimeMs?: number };
  /** Open event streams allowed per key and per user (`EVENT_STREAMS_PER_KEY`, `EVENT_STREAMS_PER_USER`; default 10 and 25). */
  eventStreamLimits?: { perKey?: number; perUser?: number };
  /** OpenAI-compatible API root (`AI_BASE_URL`, e.g. `https://api.openai.com/v1`). Absent: the local deterministic engine. */
  aiBaseUrl?: string;
  /** Bearer key for `aiBaseUrl` (`AI_API_KEY`). */
  aiApiKey?: string;
  /** Chat model id (`AI_MODEL`); required with `aiBaseUrl`. */
  aiModel?: string;
  /** Image model id for article covers (`AI_IMAGE_MODEL`). */
  aiImageModel?: string;
  /** Provider price in cents per 1,000 input tokens (`AI_PRICE_INPUT_PER_1K`, default 0.25). */
  aiPriceInputPer1K?: number;
  /** Provider price in cents per 1,000 output tokens (`AI_PRICE_OUTPUT_PER_1K`, default 1). */
  aiPriceOutputPer1K?: number;
  /** Provider price in cents per image (`AI_PRICE_IMAGE`, default 4). */
  aiPriceImage?: number;
  /** Bound on one text call to the model server, retries included (`AI_TIMEOUT_MS`, default 60 000). */
  aiTimeoutMs?: number;
  /** Bound on one cover image call, retries included (`AI_IMAGE_TIMEOUT_MS`, default 120 000); past it the cover is `timed_out`. */
  aiImageTimeoutMs?: number;
  /** Seed of the simulated social network (`THREADLINE_NETWORK_SEED`): the same seed gives the same world. */
  networkSeed?: number;
  /** X API v2 root (`X_API_BASE_URL`). With `xBearerToken` it replaces the simulated network. */
  xApiBaseUrl?: string;
  /** Bearer token for `xApiBaseUrl` (`X_BEARER_TOKEN`). */
  xBearerToken?: string;
  /** User-context token for writes through the X API (`X_USER_TOKEN`); without it writes are refused. */
  xUserToken?: string;
  /** Bound on one X API call in ms (`X_API_TIMEOUT_MS`, default 10 000). */
  xApiTimeoutMs?: number;
  /** The X app's API key (`X_CONSUMER_KEY`), with `xConsumerSecret`: signs as accounts holding OAuth 1.0a tokens (docs/x.md). */
  xConsumerKey?: string;
  /** The X app's API secret (`X_CONSUMER_SECRET`). */
  xConsumerSecret?: string;
  /** X's unit prices in USD (`X_PRICES`, JSON of kind to USD over x-api/getting-started/pricing.mdx; docs/x.md). */
  xPrices?: XPrices;
  /** Monthly X budget in USD of a user without one of their own (`X_MONTHLY_BUDGET_USD`); unset: no budget. */
  xMonthlyBudgetUsd?: number;
  /** The operator's X app for connecting accounts (`X_CLIENT_ID`; docs/x.md). Absent: `POST /v1/accounts/connect` answers 503 x_oauth_not_configured. */
  xClientId?: string;
  /** Its secret (`X_CLIENT_SECRET`), for a confidential client; absent: a public client. */
  xClientSecret?: string;
  /** Where X sends the browser back (`X_OAUTH_CALLBACK_URL`, default `<PUBLIC_URL>/connect/x/callback`); registered in the X app. */
  xOAuthCallbackUrl?: string;
  /** X's consent screen (`X_AUTHORIZE_URL`, default `https://x.com/i/oauth2/authorize`; a test's fake X). */
  xAuthorizeUrl?: string;
  /** Hosted inspiration media library (`INSPIRATION_MEDIA_URL`, its root; POST `<url>/search`). Absent: the simulated library. */
  inspirationMediaUrl?: string;
  /** Bearer key for `inspirationMediaUrl` (`INSPIRATION_MEDIA_KEY`). */
  inspirationMediaKey?: string;
  /** Bound on one call to the hosted library in ms (`INSPIRATION_MEDIA_TIMEOUT_MS`, default 10 000). */
  inspirationMediaTimeoutMs?: number;
  /** Media store (`MEDIA_STORE`): `local` (default), `s3` or `none` (`POST /v1/media` then answers 503 media_not_configured). */
  mediaStore?: "local" | "s3" | "none";
  /** Local media directory (`MEDIA_DIR`, default `<dataDir>/media`; a temporary one when `dataDir` is null). */
  mediaDir?: string;
  /** Key of the local store's upload URL signatures (`MEDIA_SIGNING_SECRET`); default a secret kept in the database. */
  mediaSigningSecret?: string;
  /**
   * The key stored secrets are sealed with (`ENCRYPTION_KEY`: 32 bytes, base64 or 64 hex digits;
   * webhook signing secrets). Absent: a key generated once and kept in the database, which a copy
   * of the database reveals. Every process on one database needs the same.
   */
  encryptionKey?: string;
  /** The key before the current one (`ENCRYPTION_KEY_PREVIOUS`), while values sealed under it remain (the hourly job seals them again). */
  encryptionKeyPrevious?: string;
  /** S3-compatible endpoint (`S3_ENDPOINT`, default `https://s3.<region>.amazonaws.com`). */
  s3Endpoint?: string;
  /** Bucket (`S3_BUCKET`). */
  s3Bucket?: string;
  /** Region (`S3_REGION`, default `us-east-1`). */
  s3Region?: string;
  /** Access key id (`S3_ACCESS_KEY_ID`). */
  s3AccessKeyId?: string;
  /** Secret access key (`S3_SECRET_ACCESS_KEY`). */
  s3SecretAccessKey?: string;
  /** Public base URL of the objects (`S3_PUBLIC_URL`); absent: object URLs are presigned GETs valid 7 days. */
  s3PublicUrl?: string;
  /** Path-style URLs `endpoint/bucket/key` (`S3_FORCE_PATH_STYLE`, default true); false: `bucket.endpoint/key`. */
  s3PathStyle?: boolean;
}

/** Reads the configuration from environment variables (see README's table). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ThreadlineConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    dataDir: env.DATA_DIR || undefined,
    poolSize: numberFrom(env, "DATABASE_POOL_SIZE"),
    keyPrefix: env.THREADLINE_KEY_PREFIX || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    trustProxy: booleanFrom(env, "TRUST_PROXY") ?? false,
    faults: parseFaults(env.THREADLINE_FAULTS),
    aiBaseUrl: env.AI_BASE_URL || undefined,
    aiApiKey: env.AI_API_KEY || undefined,
    aiModel: env.AI_MODEL || undefined,
    aiImageModel: env.AI_IMAGE_MODEL || undefined,
    aiPriceInputPer1K: numberFrom(env, "AI_PRICE_INPUT_PER_1K"),
    aiPriceOutputPer1K: numberFrom(env, "AI_PRICE_OUTPUT_PER_1K"),
    aiPriceImage: numberFrom(env, "AI_PRICE_IMAGE"),
    aiTimeoutMs: numberFrom(env, "AI_TIMEOUT_MS"),
    aiImageTimeoutMs: numberFrom(env, "AI_IMAGE_TIMEOUT_MS"),
    networkSeed: numberFrom(env, "THREADLINE_NETWORK_SEED"),
    xApiBaseUrl: env.X_API_BASE_URL || undefined,
    xBearerToken: env.X_BEARER_TOKEN || undefined,
    xUserToken: env.X_USER_TOKEN || undefined,
    xApiTimeoutMs: numberFrom(env, "X_API_TIMEOUT_MS"),
    xConsumerKey: env.X_CONSUMER_KEY || undefined,
    xConsumerSecret: env.X_CONSUMER_SECRET || undefined,
    xPrices: env.X_PRICES ? xPricesOf(env.X_PRICES) : undefined,
    xMonthlyBudgetUsd: numberFrom(env, "X_MONTHLY_BUDGET_USD"),
    xClientId: env.X_CLIENT_ID || undefined,
    xClientSecret: env.X_CLIENT_SECRET || undefined,
    xOAuthCallbackUrl: env.X_OAUTH_CALLBACK_URL || undefined,
    xAuthorizeUrl: env.X_AUTHORIZE_URL || undefined,
    inspirationMediaUrl: env.INSPIRATION_MEDIA_URL || undefined,
    inspirationMediaKey: env.INSPIRATION_MEDIA_KEY || undefined,
    inspirationMediaTimeoutMs: numberFrom(env, "INSPIRATION_MEDIA_TIMEOUT_MS"),
    mediaStore: (env.MEDIA_STORE || undefined) as ThreadlineConfig["mediaStore"],
    mediaDir: env.MEDIA_DIR || undefined,
    mediaSigningSecret: env.MEDIA_SIGNING_SECRET || undefined,
    encryptionKey: keyFrom(env, "ENCRYPTION_KEY"),
    encryptionKeyPrevious: keyFrom(env, "ENCRYPTION_KEY_PREVIOUS"),
    s3Endpoint: env.S3_ENDPOINT || undefined,
    s3Bucket: env.S3_BUCKET || undefined,
    s3Region: env.S3_REGION || undefined,
    s3AccessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    s3SecretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    s3PublicUrl: env.S3_PUBLIC_URL || undefined,
    s3PathStyle: booleanFrom(env, "S3_FORCE_PATH_STYLE"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS),
    mcpWebhookTools: booleanFrom(env, "MCP_WEBHOOK_TOOLS"),
    coverWaitMs: numberFrom(env, "COVER_WAIT_MS"),
    eventStreamLimits: { perKey: numberFrom(env, "EVENT_STREAMS_PER_KEY"), perUser: numberFrom(env, "EVENT_STREAMS_PER_USER") },
    metricsEnabled: booleanFrom(env, "METRICS_ENABLED"),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: numberFrom(env, "SHUTDOWN_TIMEOUT_MS"),
    jobThreadHeapMb: numberFrom(env, "JOB_THREAD_HEAP_MB"),
    outboundAllowHosts: env.OUTBOUND_ALLOW_HOSTS || undefined,
    outboundCa: fileFrom(env, "OUTBOUND_CA_FILE"),
    outboundTimeoutMs: numberFrom(env, "OUTBOUND_TIMEOUT_MS"),
  };
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A finite number >= 0 from `env[name]`, or undefined when unset; anything else stops the start with the variable named. */
function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw.slice(0, 100)}"`);
  return value;
}

/** A 32-byte key's text from `env[name]` (validated: adapters/crypto/secret_box.ts), or undefined when unset. */
function keyFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  parseEncryptionKey(raw, name);
  return raw;
}

/** The text of the file `env[name]` names, or undefined when unset; an unreadable file stops the start with the variable named. */
function fileFrom(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const path = env[name]?.trim();
  if (!path) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`${name} names a file that cannot be read ("${path.slice(0, 200)}": ${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

/** `true`/`1`/`yes` or `false`/`0`/`no` (any case) from `env[name]`, or undefined when unset. */
function booleanFrom(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw.slice(0, 100)}"`);
}

/** One of `values` from `env[name]`, or undefined when unset. */
function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[]): T | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(", ")}, got "${raw.slice(0, 100)}"`);
  return raw as T;
}

/**
 * The social network a config names: the simulated world unless X_API_BASE_URL and
 * X_BEARER_TOKEN are set; THREADLINE_FAULTS=x makes it fail. Serializable, so the job
 * thread opens the same network as the server, keeping X's rate windows in the same Redis.
 */
export function networkSettingsOf(config: ThreadlineConfig): NetworkSettings {
  return {
    seed: config.networkSeed,
    xApi:
      config.xApiBaseUrl && config.xBearerToken
        ? {
            baseUrl: config.xApiBaseUrl,
            bearerToken: config.xBearerToken,
            userToken: config.xUserToken,
            timeoutMs: config.xApiTimeoutMs,
            oauth: xOAuthOf(config),
            rateWindows: { redisUrl: config.redisUrl, redisPrefix: config.redisPrefix },
            consumer: config.xConsumerKey && config.xConsumerSecret ? { key: config.xConsumerKey, secret: config.xConsumerSecret } : undefined,
            prices: config.xPrices,
            monthlyBudgetUsd: config.xMonthlyBudgetUsd,
          }
        : undefined,
    faulty: faultsOf(config).has("x"),
  };
}

/** The inspiration media library a config names: hosted when `INSPIRATION_MEDIA_URL` is set, else simulated with the network's seed. */
export function mediaLibrarySettingsOf(config: ThreadlineConfig): MediaLibrarySettings {
  return { url: config.inspirationMediaUrl, key: config.inspirationMediaKey, timeoutMs: config.inspirationMediaTimeoutMs, seed: config.networkSeed };
}

/**
 * The model a config names, as plain data (open it with `openModel(settings, settings.faulty)`):
 * the job thread opens the same model as the server, as it does the network.
 */
export function modelSettingsOf(config: ThreadlineConfig): ModelSettings {
  const { aiBaseUrl, aiApiKey, aiModel, aiImageModel, aiPriceInputPer1K, aiPriceOutputPer1K, aiPriceImage, aiTimeoutMs, aiImageTimeoutMs } = config;
  return {
    aiBaseUrl,
    aiApiKey,
    aiModel,
    aiImageModel,
    aiPriceInputPer1K,
    aiPriceOutputPer1K,
    aiPriceImage,
    aiTimeoutMs,
    aiImageTimeoutMs,
    faulty: faultsOf(config).has("ai"),
  };
}

/** The fault set of a config. */
export function faultsOf(config: ThreadlineConfig): ReadonlySet<FaultName> {
  if (typeof config.faults === "string") return parseFaults(config.faults);
  return new Set(config.faults ?? []);
}

/** The X app's OAuth settings as plain data (a job thread refreshes tokens too), or undefined without `X_CLIENT_ID`. */
function xOAuthOf(config: ThreadlineConfig): XOAuthSettings | undefined {
  const settings = xConnectSettingsOf(config);
  if (!settings) return undefined;
  const { callbackUrl: _callback, ...oauth } = settings;
  return oauth;
}

/** The connect flow's settings (docs/x.md), or undefined without `X_CLIENT_ID`; an app without a callback URL stops the start. */
export function xConnectSettingsOf(config: ThreadlineConfig): (XOAuthSettings & { callbackUrl: string }) | undefined {
  if (!config.xClientId) return undefined;
  const callbackUrl = config.xOAuthCallbackUrl ?? (config.publicUrl ? `${config.publicUrl.replace(/\/+$/, "")}/connect/x/callback` : undefined);
  if (!callbackUrl)
    throw new Error("X_CLIENT_ID is set: set PUBLIC_URL (the callback is <PUBLIC_URL>/connect/x/callback) or X_OAUTH_CALLBACK_URL, as registered in the X app");
  return {
    clientId: config.xClientId,
    clientSecret: config.xClientSecret,
    authorizeUrl: config.xAuthorizeUrl,
    apiBaseUrl: config.xApiBaseUrl,
    timeoutMs: config.xApiTimeoutMs,
    callbackUrl,
  };
}
