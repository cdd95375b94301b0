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
import type { UserTokenSource } from "./x_api/x_user_tokens.ts";
import { createXOAuthClient, type XOAuthSettings } from "./x_oauth_client.ts";
import type { SecretBox } from "../../core/ports/secret_box.ts";
import { accountTokenFor } from "../../core/accounts/x_tokens.ts";
import { DEFAULT_X_PRICES, type XPrices } from "../../core/x_usage/x_prices.ts";
import { createXUsageWatcher } from "./x_api/x_usage_watcher.ts";

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
    /** X's unit prices (`X_PRICES` over x-api/getting-started/pricing.mdx; docs/x.md "X's prices and your budget"). */
    prices?: XPrices;
    /** The monthly X budget in USD of a user without one of their own (`X_MONTHLY_BUDGET_USD`); absent: no budget. */
    monthlyBudgetUsd?: number;
  };
  /** Opens the connected accounts' sealed tokens (with `xApi.oauth`). */
  secretBox?: SecretBox;
  /** `THREADLINE_FAULTS=x`: every call fails as if X were unreachable. */
  faulty?: boolean;
}

/** The serializable part of NetworkOptions: a job thread receives it and opens its own network. */
export type NetworkSettings = Omit<NetworkOptions, "sql" | "clock" | "secretBox">;

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
        watchers: [
          createXUsageWatcher({
            sql: options.sql,
            clock: options.clock,
            prices: options.xApi.prices ?? DEFAULT_X_PRICES,
            defaultBudgetUsd: options.xApi.monthlyBudgetUsd,
          }),
        ],
      })
    : createSimulatedNetwork({ sql: options.sql, clock: options.clock, seed: options.seed ?? DEFAULT_NETWORK_SEED });
  return options.faulty ? createFaultyNetwork(network) : network;
}

/**
 * Where writes find their user-context token: with the operator's X app, each account's connected
 * token (core/accounts/x_tokens.ts; the account id is the X user id); else the one
 * `X_USER_TOKEN`.
 */
function userTokensOf(options: NetworkOptions, xApi: NonNullable<NetworkOptions["xApi"]>): UserTokenSource | undefined {
  if (!xApi.oauth) return xApi.userToken;
  if (!options.secretBox) throw new Error("Connected X accounts need the secret box to open their tokens");
  const deps = { sql: options.sql, clock: options.clock, secretBox: options.secretBox, oauth: createXOAuthClient({ ...xApi.oauth, apiBaseUrl: xApi.baseUrl }) };
  return (accountId) => accountTokenFor(deps, accountId);
}

/**
 * Applies the migrations of the network `settings` pick, once core's are applied: the
 * simulated network's tables (its own chain); the X API client stores nothing.
 */
export async function migrateNetwork(sql: Sql, settings: NetworkSettings): Promise<void> {
  if (!settings.xApi) await migrateSimulatedNetwork(sql);
}
