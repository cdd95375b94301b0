/**
 * The request context every surface builds the same way: REST, tRPC, the CLI and
 * tests all call `createContextInner`, so a procedure never knows which one called it.
 */
import type { Clock } from "./clock.ts";
import type { EventFeed } from "./ports/event_feed.ts";
import type { SecretBox } from "./ports/secret_box.ts";
import type { XOAuth } from "./ports/x_oauth.ts";
import type { Sql } from "./db/sql.ts";
import type { FaultName } from "./faults.ts";
import type { Counters } from "./ports/counters.ts";
import type { KeyCache } from "./ports/key_cache.ts";
import type { Principal } from "./request_state/principal.ts";
import type { AccountAccess } from "./request_state/account_access.ts";
import type { IdempotentRun } from "./request_state/idempotent_run.ts";
import type { CreditCall } from "./request_state/credit_state.ts";
import type { Model } from "./model/model.ts";
import type { LookupCache } from "./ports/lookup_cache.ts";
import type { Outbound } from "./outbound/outbound.ts";
import type { PageReader } from "./ports/page_reader.ts";
import type { SocialNetwork } from "./network/social_network.ts";
import type { MediaStore } from "./ports/media_store.ts";
import type { MediaLibrary } from "./ports/media_library.ts";
import type { Telemetry } from "./telemetry/telemetry.ts";
import type { MessageStream } from "./message_stream.ts";
import type { WebhookSender } from "./ports/webhook_sender.ts";

/** Everything outside the process, passed in (never imported as a singleton). */
export interface Services {
  sql: Sql;
  /** Request buckets; fail open to a per-process limiter (ARCHITECTURE: Counters). */
  requestCounters: Counters;
  /** Daily allowances and action caps; fail closed: an unreachable store refuses the call (rule 9). */
  allowanceCounters: Counters;
  clock: Clock;
  faults: ReadonlySet<FaultName>;
  keyCache: KeyCache;
  settings: Settings;
  /** The OpenAPI document and quick reference, built once from the router. */
  docs: () => DocsBundle;
  /** Fetches URLs callers hand us, guarded (core/outbound/outbound.ts): media from a URL. */
  outbound: Outbound;
  /** Posts webhook deliveries through the same address guard (core/ports/webhook_sender.ts). */
  webhookSender: WebhookSender;
  /** Seals the secrets the server must read back, webhook signing secrets (core/ports/secret_box.ts). */
  secretBox: SecretBox;
  /** The operator's X app for connecting accounts (core/accounts/connect_start.ts); absent without `X_CLIENT_ID`. */
  xConnect?: { oauth: XOAuth; callbackUrl: string };
  /** Reads public web pages (product scrapes) through `outbound`. */
  pageReader: PageReader;
  /** Live-lookup answers kept about 15 minutes (spec X Lookups). */
  lookupCache: LookupCache;
  /** The AI model: local deterministic engine or an OpenAI-compatible server (core/model/model.ts). */
  model: Model;
  /** The social network (X): the simulated world or X API v2 (core/network/social_network.ts). */
  network: SocialNetwork;
  /** Viral media posts across platforms for `GET /v1/inspiration/media`: simulated or a hosted source (core/ports/media_library.ts). */
  mediaLibrary: MediaLibrary;
  /** Uploaded images: local disk or S3 (core/ports/media_store.ts); undefined when not configured (`503 media_not_configured`). */
  media?: MediaStore;
  /** Metrics the core reports (rate-limit refusals, credits); absent: nothing recorded. */
  telemetry?: Telemetry;
  /** Wakes this process's open event streams when their events commit (core/events/event_feed.ts). */
  eventFeed: EventFeed;
}

/** Operator settings that rules read. */
export interface Settings {
  /** Prefix of issued API keys (`sxk_` so the real service's CLI accepts them). */
  keyPrefix: string;
  /** Public base URL of the REST surface, ending in `/v1`, when known. */
  baseUrl?: string;
  /**
   * The `webhooks` tools are offered over MCP (`MCP_WEBHOOK_TOOLS`; default off): an agent that
   * reads network content could otherwise be steered into sending data to any URL.
   */
  mcpWebhookTools?: boolean;
  /** How long `POST /v1/articles/{id}/cover` waits for its cover before `504 upstream_timeout` (`COVER_WAIT_MS`, default 120 000). */
  coverWaitMs?: number;
  /** Open `GET /v1/events` streams allowed per key and per user (`EVENT_STREAMS_PER_KEY`, `EVENT_STREAMS_PER_USER`; default 10 and 25). */
  eventStreamLimits?: { perKey: number; perUser: number };
  /** The monthly X budget in USD of a user without one of their own (`X_MONTHLY_BUDGET_USD`; docs/x.md); absent: none. */
  xMonthlyBudgetUsd?: number;
}

/** The documents `GET /v1/docs` serves. */
export interface DocsBundle {
  openapi: Record<string, unknown>;
  markdown: string;
  html: string;
}

/** Facts about the transport a request came through. */
export interface Transport {
  headers: Headers;
  /** Client address for the failed-attempt limiter (`unknown` when the host gives none). */
  ip: string;
  /**
   * The REST adapter can stream this operation's answer and the client asked for it
   * (`EndpointMeta.stream` and a matching `Accept`): the handler may answer `reply.stream`.
   */
  acceptsStream?: boolean;
  /**
   * The context carries exactly one procedure call (REST, an MCP tool call): the key path
   * lets the call write the answer headers and reply here directly instead of on a copy
   * merged back (core/trpc.ts `keyRequest`). Left unset where one context may carry several
   * calls (a tRPC batch, a server-side caller).
   */
  oneCall?: boolean;
  /**
   * The key of these headers, already authenticated by the transport for this request (the MCP
   * route checks it before reading the body): the key path uses it instead of looking it up again.
   */
  authenticated?: Principal;
}

/** The context procedures receive. */
export interface Context {
  services: Services;
  transport: Transport;
  /** Headers the REST and tRPC adapters add to the answer, errors included. */
  responseHeaders: Headers;
  principal?: Principal;
  account?: AccountAccess;
  /** Set while a request runs under a reserved `Idempotency-Key`. */
  idempotency?: IdempotentRun;
  /** Set while a priced procedure runs: metered handlers charge against it. */
  credits?: CreditCall;
  /**
   * What the request path learned, for the request log (adapters/http/observed_fetch.ts).
   * One object shared by every narrowed copy of the context: middleware never mutates the
   * context itself, so this is where authentication leaves the principal for the log.
   */
  report: RequestReport;
  /**
   * The success status the handler chose, when its procedure declares more than one
   * (`alsoAnswers` in core/trpc.ts: a dataset create answers `201` ready or `202`
   * collecting). Shared by every narrowed copy of the context, like `report`. `stream`: the
   * messages a stream operation answers instead of JSON (`EndpointMeta.stream`).
   * `jobSettlesCredits`: the call's credits now belong to the background job it enqueued, so a
   * refusal from here on refunds nothing itself (a cover waited for and answered `504` keeps them).
   */
  reply: { status?: SuccessStatus; stream?: MessageStream; jobSettlesCredits?: boolean };
}

/** A success status a handler may choose. */
export type SuccessStatus = 200 | 201 | 202;

/** What the request log may name about a request. */
export interface RequestReport {
  principal?: Principal;
}

/** Builds a context without HTTP; adapters and tests call this. */
export function createContextInner(options: {
  services: Services;
  headers?: HeadersInit;
  ip?: string;
  acceptsStream?: boolean;
  oneCall?: boolean;
  authenticated?: Principal;
  /** The answer's headers when the caller already holds them (the request id set by observed_fetch.ts). */
  responseHeaders?: Headers;
}): Context {
  const headers = options.headers instanceof Headers ? options.headers : new Headers(options.headers);
  const transport: Transport = { headers, ip: options.ip ?? "unknown" };
  if (options.acceptsStream) transport.acceptsStream = true;
  if (options.oneCall) transport.oneCall = true;
  if (options.authenticated) transport.authenticated = options.authenticated;
  return {
    services: options.services,
    // The request's own Headers are used as they are (read-only here): copying them per request cost measurable time.
    transport,
    responseHeaders: options.responseHeaders ?? new Headers(),
    report: {},
    reply: {},
  };
}

/** The context after authentication. */
export type KeyContext = Context & { principal: Principal };

/** The context after account resolution. */
export type AccountContext = KeyContext & { account: AccountAccess };
