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
  xApi?: { baseUrl: string; bearerToken: string; userToken?: string; timeoutMs?: number };
  /** `THREADLINE_FAULTS=x`: every call fails as if X were unreachable. */
  faulty?: boolean;
}

/** The serializable part of NetworkOptions: a job thread receives it and opens its own network. */
export type NetworkSettings = Omit<NetworkOptions, "sql" | "clock">;

/** Opens the network `options` describe. */
export function openNetwork(options: NetworkOptions): SocialNetwork {
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new Error(`The network seed must be an integer (THREADLINE_NETWORK_SEED), got "${options.seed}"`);
  }
  const network = options.xApi
    ? createXApiNetwork({ ...options.xApi, clock: options.clock })
    : createSimulatedNetwork({ sql: options.sql, clock: options.clock, seed: options.seed ?? DEFAULT_NETWORK_SEED });
  return options.faulty ? createFaultyNetwork(network) : network;
}

/**
 * Applies the migrations of the network `settings` pick, once core's are applied: the
 * simulated network's tables (its own chain); the X API client stores nothing.
 */
export async function migrateNetwork(sql: Sql, settings: NetworkSettings): Promise<void> {
  if (!settings.xApi) await migrateSimulatedNetwork(sql);
}
