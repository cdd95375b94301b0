/**
 * Chooses the SocialNetwork adapter (docs/operations.md "The outside world"): the simulated world by default, the X API
 * v2 client when an X API base URL and bearer token are configured; and wraps it in the
 * fault switch when `THREADLINE_FAULTS` names `x`.
 */
import type { Clock } from "../../core/clock.ts";
import type { Sql } from "../../core/db/sql.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";
import { createFaultyNetwork } from "./faulty_network.ts";
import { createSimulatedNetwork } from "./simulated/simulated_network.ts";
import { migrateSimulatedNetwork } from "./simulated/simulated_migrations.ts";
import { createXApiNetwork } from "./x_api/x_api_network.ts";
import type { XConsumer } from "./x_api/x_oauth1.ts";
import type { XOAuth } from "../../core/ports/x_oauth.ts";
import type { UserTokenSource } from "./x_api/x_user_tokens.ts";
import { createXOAuthClient, type XOAuthSettings } from "./x_oauth_client.ts";
import type { SecretBox } from "../../core/ports/secret_box.ts";
import { accountTokenFor, forceTokenRefresh } from "../../core/accounts/x_tokens.ts";
import type { RateWindows } from "../../core/ports/rate_windows.ts";
import { createMemoryRateWindows } from "../counters/memory_rate_windows.ts";
import { createRedisRateWindows } from "../counters/redis_rate_windows.ts";
import { xRateWindows } from "./x_api/x_rate_windows.ts";
import { DEFAULT_X_PRICES, type XPrices } from "../../core/x_usage/x_prices.ts";
import { createXUsageWatcher } from "./x_api/x_usage_watcher.ts";
import type { XCallWatcher } from "./x_api/x_api_client.ts";

/** The seed of the simulated world unless configured (any fixed number keeps demos repeatable). */
export const DEFAULT_NETWORK_SEED = 20_261_121;

/** What picking a network needs. */
export interface NetworkOptions {
  sql: Sql;
  clock: Clock;
  /** Seed of the simulated world (default DEFAULT_NETWORK_SEED). */
  seed?: number;
  /**
   * X API v2 (`X_API_BASE_URL`, `X_BEARER_TOKEN`); absent: the simulated world. Writes
   * need a user-context token (`userToken`); without one the client refuses them.
   */
  xApi?: {
    baseUrl: string;
    bearerToken: string;
    userToken?: string;
    timeoutMs?: number;
    /** The operator's X app (`X_CLIENT_ID`): writes act with each account's connected token, refreshed as it expires (docs/x.md). */
    oauth?: XOAuthSettings;
    /** Where X's rate windows are kept (docs/x.md "X's rate limits"): Redis when `REDIS_URL` is set, so every process shares them; else this process's memory. */
    rateWindows?: { redisUrl?: string; redisPrefix?: string };
    /** The X app's API key and secret (`X_CONSUMER_KEY`, `X_CONSUMER_SECRET`): signs as accounts holding OAuth 1.0a tokens. */
    consumer?: XConsumer;
    /** X's unit prices (`X_PRICES` over x-api/getting-started/pricing.mdx; docs/x.md "X's prices and your budget"). */
    prices?: XPrices;
    /** The monthly X budget in USD of a user without one of their own (`X_MONTHLY_BUDGET_USD`); absent: no budget. */
    monthlyBudgetUsd?: number;
  };
  /** The opened store of X's rate windows (openXRateWindows); absent with `xApi`: one in this network's memory. */
  rateWindows?: RateWindows;
  /** Opens the connected accounts' sealed tokens (with `xApi.oauth`). */
  secretBox?: SecretBox;
  /** `THREADLINE_FAULTS=x`: every call fails as if X were unreachable. */
  faulty?: boolean;
}

/** The serializable part of NetworkOptions: a job thread receives it and opens its own network. */
export type NetworkSettings = Omit<NetworkOptions, "sql" | "clock" | "secretBox" | "rateWindows">;

/** Opens the network `options` describe. */
export function openNetwork(options: NetworkOptions): SocialNetwork {
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new Error(`The network seed must be an integer (THREADLINE_NETWORK_SEED), got "${options.seed}"`);
  }
  const network = options.xApi
    ? createXApiNetwork({
        ...options.xApi,
        userToken: userTokensOf(options, options.xApi),
        clock: options.clock,
        // The budget first: a call it refuses takes no slot of X's rate windows.
        watchers: [
          createXUsageWatcher({
            sql: options.sql,
            clock: options.clock,
            prices: options.xApi.prices ?? DEFAULT_X_PRICES,
            defaultBudgetUsd: options.xApi.monthlyBudgetUsd,
          }),
          xRateWindows({ store: options.rateWindows ?? createMemoryRateWindows(), clock: options.clock }),
          ...(options.xApi.oauth ? [refreshOnRefusal(options)] : []),
        ],
      })
    : createSimulatedNetwork({ sql: options.sql, clock: options.clock, seed: options.seed ?? DEFAULT_NETWORK_SEED });
  return options.faulty ? createFaultyNetwork(network) : network;
}

/**
 * A 401 on a request acting as a connected account (X refused its access token) makes the next
 * call refresh that token first (core/accounts/x_tokens.ts, forceTokenRefresh): the write is
 * retried with the refreshed token, and a refresh X refuses marks the account `reauth_required`.
 */
function refreshOnRefusal(options: NetworkOptions): XCallWatcher {
  return {
    async after(call, answer) {
      if (answer?.status === 401 && call.userId) await forceTokenRefresh(options, call.userId);
    },
  };
}

/**
 * Opens the store of X's rate windows the settings name (with the X API only): Redis when
 * `REDIS_URL` is set (shared by every process and job thread), else memory. The caller closes it.
 */
export function openXRateWindows(settings: NetworkSettings): RateWindows | undefined {
  if (!settings.xApi) return undefined;
  const redisUrl = settings.xApi.rateWindows?.redisUrl;
  return redisUrl ? createRedisRateWindows({ url: redisUrl, prefix: settings.xApi.rateWindows?.redisPrefix }) : createMemoryRateWindows();
}

/**
 * Where writes find their user-context token: with the operator's X app, each account's connected
 * token (core/accounts/x_tokens.ts; the account id is the X user id); else the one
 * `X_USER_TOKEN`. With only the app's API key and secret, each account's stored OAuth 1.0a token.
 */
function userTokensOf(options: NetworkOptions, xApi: NonNullable<NetworkOptions["xApi"]>): UserTokenSource | undefined {
  if (!xApi.oauth && !xApi.consumer) return xApi.userToken;
  if (!options.secretBox) throw new Error("Connected X accounts need the secret box to open their tokens");
  // With only the API key and secret (X_CONSUMER_KEY), accounts hold OAuth 1.0a tokens, never refreshed.
  const oauth = xApi.oauth ? createXOAuthClient({ ...xApi.oauth, apiBaseUrl: xApi.baseUrl }) : withoutXApp;
  const deps = { sql: options.sql, clock: options.clock, secretBox: options.secretBox, oauth };
  return (accountId) => accountTokenFor(deps, accountId);
}

/** The OAuth 2.0 client when no X app (`X_CLIENT_ID`) is configured: nothing can be connected or refreshed. */
const withoutXApp: XOAuth = {
  authorizeUrl: () => {
    throw new Error("Connecting accounts needs the X app (X_CLIENT_ID)");
  },
  exchangeCode: async () => {
    throw new Error("Connecting accounts needs the X app (X_CLIENT_ID)");
  },
  refresh: async () => {
    throw new Error("Refreshing an X token needs the X app (X_CLIENT_ID)");
  },
  me: async () => {
    throw new Error("Connecting accounts needs the X app (X_CLIENT_ID)");
  },
};

/**
 * Applies the migrations of the network `settings` pick, once core's are applied: the
 * simulated network's tables (its own chain); the X API client stores nothing.
 */
export async function migrateNetwork(sql: Sql, settings: NetworkSettings): Promise<void> {
  if (!settings.xApi) await migrateSimulatedNetwork(sql);
}
