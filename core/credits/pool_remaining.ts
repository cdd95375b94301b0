/** What is left in an AI credit pool: the one rule the charge path and the `credits.low` event share. */
import type { PoolRow } from "./credits_queries.ts";

/** Credits left in a pool row (may be negative after a settle that cost more than held). */
export function remainingOf(pool: PoolRow): number {
  return pool.allowance + pool.bonus - pool.spent;
}
