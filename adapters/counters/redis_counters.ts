/**
 * Fixed-window counters and token buckets in Redis, shared by every server process.
 *
 * Each consume and each token take runs inside one Lua script, so the check and the charge of all
 * its windows happen atomically: no other client can slip in between "is there
 * room?" and "take it" (spec, Limits 1: all windows are charged, or none). Consumes issued in
 * the same turn of the event loop (the requests one socket poll delivered) share one script
 * call, which decides them one after the other in the order they were issued, each all or
 * nothing: the same outcome as separate calls, for one command's cost (consume_batch.ts).
 */
import { openRedisConnection } from "./redis_connection.ts";
import { consumeBatches } from "./consume_batch.ts";
import { windowStart } from "../../core/ports/counters.ts";
import type { CounterCheck, Counters, WindowState } from "../../core/ports/counters.ts";
import { assertTokenBucket, gcraState } from "../../core/limits/token_bucket.ts";

/**
 * KEYS: every window key of every consume in the batch, in order. ARGV: the number of consumes,
 * then per consume its number of checks followed by limit, cost, ttl_ms per check. Each consume
 * is decided in turn, all or nothing, after the ones before it have charged; costs are summed
 * per key within a consume, so two checks naming the same window cannot together pass its
 * limit. Replies, per consume in order, {allowed, used_1..used_n}.
 */
const CONSUME_BATCH_LUA = `
local reply = {}
local k = 0
local a = 2
for c = 1, tonumber(ARGV[1]) do
  local n = tonumber(ARGV[a])
  local used = {}
  local pending = {}
  local allowed = 1
  for i = 1, n do
    local key = KEYS[k + i]
    local limit = tonumber(ARGV[a + 3 * i - 2])
    local cost = tonumber(ARGV[a + 3 * i - 1])
    used[i] = tonumber(redis.call('GET', key) or '0')
    pending[key] = (pending[key] or 0) + cost
    if used[i] + pending[key] > limit then allowed = 0 end
  end
  if allowed == 1 then
    for i = 1, n do
      local cost = tonumber(ARGV[a + 3 * i - 1])
      if cost > 0 then
        used[i] = redis.call('INCRBY', KEYS[k + i], cost)
        redis.call('PEXPIRE', KEYS[k + i], ARGV[a + 3 * i])
      end
    end
  end
  table.insert(reply, allowed)
  for i = 1, n do table.insert(reply, used[i]) end
  k = k + n
  a = a + 1 + 3 * n
end
return reply
`;

/**
 * KEYS: one window key per check. ARGV: cost per check. DECRBY keeps the
 * key's expiry; a missing key is left missing rather than created without one.
 */
const RELEASE_LUA = `
for i = 1, #KEYS do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  local cost = tonumber(ARGV[i])
  if current > 0 and cost > 0 then
    redis.call('DECRBY', KEYS[i], math.min(current, cost))
  end
end
return 0
`;

/**
 * GCRA, the same steps as `gcraTake` (core/limits/token_bucket.ts): KEYS[1] holds the
 * bucket's TAT in epoch ms. ARGV: now_ms, interval_ms, burst, cost, margin_ms. The key
 * expires once the bucket is full again (plus the margin), when a missing key means the
 * same. Replies {allowed, tat}: the stored TAT after the call. `%.0f` keeps 13-digit
 * millisecond times out of Lua's exponent notation.
 */
const TAKE_TOKENS_LUA = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local next_tat = tat + cost * interval
if next_tat - burst * interval > now then return {0, tat} end
if cost > 0 then
  redis.call('SET', KEYS[1], string.format('%.0f', next_tat), 'PX', string.format('%.0f', next_tat - now + tonumber(ARGV[5])))
end
return {1, next_tat}
`;

/**
 * Keys outlive their window by this much. The TTL is computed from the
 * caller's clock rather than PEXPIREAT on Redis's: when the two disagree, an
 * absolute time already past on Redis's clock would delete the key on the
 * spot and silently reset the window.
 */
const EXPIRY_MARGIN_MS = 10_000;

interface ScriptCommands {
  threadlineConsumeBatch(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  threadlineRelease(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  threadlineTakeTokens(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** Creates fixed-window counters stored in Redis under `prefix` (default `tl:`). */
export function createRedisCounters(options: { url: string; prefix?: string }): Counters {
  const prefix = options.prefix ?? "tl:";
  // Concurrent requests' scripts leave in one write per event-loop tick: the
  // benchmark measured the socket write per EVALSHA as a quarter of the per-request cost.
  const connection = openRedisConnection(options.url, "Redis counters", { autoPipelining: true });
  const { redis, ready, isReady } = connection;
  // defineCommand sends EVALSHA and falls back to EVAL when the server
  // has not seen the script yet (after a restart or SCRIPT FLUSH).
  redis.defineCommand("threadlineConsumeBatch", { lua: CONSUME_BATCH_LUA });
  redis.defineCommand("threadlineRelease", { lua: RELEASE_LUA });
  redis.defineCommand("threadlineTakeTokens", { lua: TAKE_TOKENS_LUA });
  const scripts = redis as unknown as ScriptCommands;
  const batches = consumeBatches(async (batch) => {
    const keys = batch.flatMap((consume) => consume.keys);
    const args = batch.flatMap((consume) => consume.args);
    const reply = await scripts.threadlineConsumeBatch(keys.length, ...keys, batch.length, ...args);
    return splitReply(
      reply,
      batch.map((consume) => consume.keys.length),
    );
  });

  function keyOf(check: CounterCheck, nowMs: number): string {
    return `${prefix}${check.key}:${windowStart(nowMs, check.windowSeconds)}`;
  }

  return {
    async consume(checks, nowMs) {
      if (checks.length === 0) return { allowed: true, windows: [] };
      // Every request comes here: no extra promise while connected.
      if (!isReady()) await ready();
      const keys = checks.map((check) => keyOf(check, nowMs));
      const args: number[] = [checks.length];
      for (const check of checks) {
        const endMs = (windowStart(nowMs, check.windowSeconds) + check.windowSeconds) * 1000;
        args.push(check.limit, check.cost, Math.ceil(endMs - nowMs) + EXPIRY_MARGIN_MS);
      }
      const [allowed, ...used] = await batches.decide({ keys, args });
      const windows = checks.map(
        (check, i): WindowState => ({
          key: check.key,
          limit: check.limit,
          windowSeconds: check.windowSeconds,
          used: used[i],
          remaining: Math.max(0, check.limit - used[i]),
          resetAt: windowStart(nowMs, check.windowSeconds) + check.windowSeconds,
        }),
      );
      return { allowed: allowed === 1, windows };
    },

    async takeTokens(check, nowMs) {
      assertTokenBucket(check);
      await ready();
      const now = Math.floor(nowMs);
      const reply = await scripts.threadlineTakeTokens(1, `${prefix}${check.key}`, now, check.intervalMs, check.burst, check.cost, EXPIRY_MARGIN_MS);
      const [allowed, tat] = parseReply(reply, 2);
      return gcraState(check, now, { allowed: allowed === 1, tat });
    },

    async release(checks, nowMs) {
      if (checks.length === 0) return;
      await ready();
      const keys = checks.map((check) => keyOf(check, nowMs));
      await scripts.threadlineRelease(keys.length, ...keys, ...checks.map((check) => check.cost));
    },

    async ping() {
      await ready();
      await redis.ping();
    },

    close: connection.close,
  };
}

/** The batch script's flat reply cut into each consume's {allowed, used...}. */
function splitReply(reply: unknown, checkCounts: number[]): number[][] {
  const flat = parseReply(
    reply,
    checkCounts.reduce((sum, n) => sum + n + 1, 0),
  );
  let at = 0;
  return checkCounts.map((n) => flat.slice(at, (at += n + 1)));
}

function parseReply(reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length || !reply.every((n) => typeof n === "number")) {
    throw new Error(`Unexpected counters script reply ${JSON.stringify(reply)}`);
  }
  return reply;
}
