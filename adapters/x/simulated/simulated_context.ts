/** What the simulated network's read and write functions share. */
import type { Clock } from "../../../core/clock.ts";
import type { Queryable, Sql } from "../../../core/db/sql.ts";
import type { NetworkUser } from "../../../core/network/network_records.ts";
import type { BoundedCache } from "./bounded_cache.ts";
import type { DayIndex } from "./search_index.ts";
import type { World } from "./world.ts";

/** The world, its storage for writes, the clock, and the caches that are not the world's own. */
export interface SimulatedContext {
  world: World;
  /** Runs the queries: the pool, or a transaction while a multi-step write runs. */
  sql: Queryable;
  /** The pool, for opening transactions. */
  pool: Sql;
  clock: Clock;
  /** Search indexes by UTC day (shared with every network on the same world: shared_worlds.ts). */
  searchDays: BoundedCache<number, DayIndex>;
  /** Threadline accounts seen as network users (handles for texts that name them). */
  guests: Map<string, NetworkUser>;
  /** How far back search reaches, in days. */
  searchWindowDays: number;
}
