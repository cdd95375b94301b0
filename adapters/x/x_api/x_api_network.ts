/**
 * The SocialNetwork port over X API v2 (docs/operations.md "The outside world"): the real adapter beside the simulated
 * world. Reads use the app-only bearer token; writes and DMs a user-context token.
 * Records, cursors and errors are mapped to the port's (x_post_record.ts,
 * x_paging.ts, x_api_errors.ts), so no endpoint knows which adapter answered.
 *
 * Where X API v2 has no equivalent, the adapter says so in the module that meets it:
 * search by minimum likes (filtered here), replies (recent search, 7 days), client
 * tokens for idempotent publishing (reconciled by text), a DM's time (this clock).
 *
 * @example
 * const network = createXApiNetwork({ baseUrl: "https://api.x.com", bearerToken: process.env.X_BEARER_TOKEN! });
 * const user = await network.userByUsername("XDevelopers");
 */
import { systemClock, type Clock } from "../../../core/clock.ts";
import { publishThreadParts } from "../../../core/network/publish_thread_parts.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import { createXApiClient, type XCallWatcher } from "./x_api_client.ts";
import type { XApiContext } from "./x_api_context.ts";
import { xArticleWrites } from "./x_article_writes.ts";
import { xDirectMessages } from "./x_direct_messages.ts";
import { xMediaUpload, type XMediaUploadOptions } from "./x_media_upload.ts";
import { xListReads } from "./x_list_reads.ts";
import { xPostReads } from "./x_post_reads.ts";
import { xPostWrites } from "./x_post_writes.ts";
import { SEARCH_WINDOW_DAYS, xTimelineReads } from "./x_timeline_reads.ts";
import { xUserReads } from "./x_user_reads.ts";
import { X_DM_SEND_LIMITS } from "./x_rate_limits.ts";
import { createUserTokens, type UserTokenSource } from "./x_user_tokens.ts";
import type { XConsumer } from "./x_oauth1.ts";

/** How to reach X. */
export interface XApiNetworkOptions {
  /** API root, `https://api.x.com` (`X_API_BASE_URL`; a trailing `/2` is accepted). */
  baseUrl: string;
  /** App-only bearer token for reads (`X_BEARER_TOKEN`). */
  bearerToken: string;
  /** User-context token (OAuth 2.0 user access token) for writes and DMs, or a lookup by account id; without it writes are refused. */
  userToken?: UserTokenSource;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Bound on each request in ms, headers and body included (default 10 000). */
  timeoutMs?: number;
  clock?: Clock;
  /** Watchers of every request (metering, X's rate windows). */
  watchers?: readonly XCallWatcher[];
  /** The X app's API key and secret (`X_CONSUMER_KEY`, `X_CONSUMER_SECRET`): signs as accounts holding OAuth 1.0a tokens. */
  consumer?: XConsumer;
  /** How media uploads wait between status polls (default: as long as X says). */
  mediaUpload?: XMediaUploadOptions;
}

/** The bound on one request unless configured. */
export const DEFAULT_X_TIMEOUT_MS = 10_000;

/** Creates the X API v2 network. */
export function createXApiNetwork(options: XApiNetworkOptions): SocialNetwork {
  // A configuration mistake should stop the server at start, not fail every request later.
  if (!URL.canParse(options.baseUrl)) throw new Error(`X_API_BASE_URL must be an absolute URL such as "https://api.x.com", got "${options.baseUrl}"`);
  const client = createXApiClient({
    baseUrl: options.baseUrl,
    bearerToken: options.bearerToken,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_X_TIMEOUT_MS,
    clock: options.clock ?? systemClock,
    watchers: options.watchers,
    consumer: options.consumer,
  });
  const ctx: XApiContext = { client, clock: options.clock ?? systemClock, actorFor: createUserTokens(client, options.userToken) };
  const writes = xPostWrites(ctx);
  const network: SocialNetwork = {
    // X's per-user DM windows (x_rate_limits.ts), so campaigns are planned within them.
    info: {
      kind: "x_api",
      searchWindowDays: SEARCH_WINDOW_DAYS,
      dmWindow: { perWindow: X_DM_SEND_LIMITS.perWindow, windowMs: X_DM_SEND_LIMITS.windowMs, perDay: X_DM_SEND_LIMITS.perDay },
    },
    ...xUserReads(ctx),
    ...xPostReads(ctx),
    ...xTimelineReads(ctx),
    ...xListReads(ctx),
    ...writes,
    ...xMediaUpload(ctx, options.mediaUpload),
    publishThread: (input) => publishThreadParts(network, input),
    ...xArticleWrites(ctx),
    ...xDirectMessages(ctx),
  };
  return network;
}
