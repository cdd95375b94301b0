/**
 * Rate windows in Redis (core/ports/rate_windows.ts), shared by every process. A reservation
 * and a record are each one Lua script, so two processes never both take a window's last
 * request. A reported window is a hash (`limit`, `remaining`, `reset` in epoch ms) that
 * expires after its reset; a rolling window a sorted set of request times.
 */
import { openRedisConnection } from "./redis_connection.ts";
import type { RateWindows } from "../../core/ports/rate_windows.ts";

/**
 * KEYS: the reported windows, then the rolling ones. ARGV: now_ms, the number of reported
 * keys, a member unique to this call, then limit and window_ms per rolling key. Replies
 * {1} when every window took the request, else {0, retry_at_ms, index of the key}.
 */
const RESERVE_LUA = `
local now = tonumber(ARGV[1])
local reported = tonumber(ARGV[2])
for i = 1, reported do
  local reset = tonumber(redis.call('HGET', KEYS[i], 'reset') or '0')
  if reset > now and tonumber(redis.call('HGET', KEYS[i], 'remaining') or '1') <= 0 then
    return {0, reset, i}
  end
end
local refused = nil
for i = reported + 1, #KEYS do
  local at = 4 + 2 * (i - reported - 1)
  local limit = tonumber(ARGV[at])
  local window = tonumber(ARGV[at + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local retry = tonumber(oldest[2]) + window
    if refused == nil or retry > refused[2] then refused = {0, retry, i} end
  end
end
if refused then return refused end
for i = 1, reported do
  if tonumber(redis.call('HGET', KEYS[i], 'reset') or '0') > now then redis.call('HINCRBY', KEYS[i], 'remaining', -1) end
end
for i = reported + 1, #KEYS do
  local window = tonumber(ARGV[4 + 2 * (i - reported - 1) + 1])
  redis.call('ZADD', KEYS[i], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[i], window)
end
return {1}
`;

/**
 * KEYS[1]: the reported window. ARGV: limit, remaining, reset_ms, ttl_ms. A later reset
 * replaces what is kept, the same reset keeps the lower remaining, an earlier one is stale.
 */
const RECORD_LUA = `
local reset = tonumber(ARGV[3])
local known = tonumber(redis.call('HGET', KEYS[1], 'reset') or '0')
if known > reset then return 0 end
local remaining = tonumber(ARGV[2])
if known == reset then remaining = math.min(remaining, tonumber(redis.call('HGET', KEYS[1], 'remaining') or ARGV[2])) end
redis.call('HSET', KEYS[1], 'limit', ARGV[1], 'remaining', remaining, 'reset', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/** Reported windows outlive their reset by this much (the caller's clock may be behind Redis's). */
const EXPIRY_MARGIN_MS = 10_000;

interface ScriptCommands {
  threadlineReserveWindows(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  threadlineRecordWindow(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** Creates rate windows stored in Redis under `prefix` (default `tl:`). */
export function createRedisRateWindows(options: { url: string; prefix?: string }): RateWindows {
  const prefix = `${options.prefix ?? "tl:"}xw:`;
  const connection = openRedisConnection(options.url, "Redis rate windows");
  const { redis, ready } = connection;
  redis.defineCommand("threadlineReserveWindows", { lua: RESERVE_LUA });
  redis.defineCommand("threadlineRecordWindow", { lua: RECORD_LUA });
  const scripts = redis as unknown as ScriptCommands;
  let unique = 0;

  return {
    async reserve(request, nowMs) {
      const now = Math.floor(nowMs);
      const keys = [...request.reported, ...request.rolling.map((check) => check.key)];
      if (keys.length === 0) return { allowed: true };
      await ready();
      // Two requests in the same millisecond are two members of a rolling window.
      const member = `${now}:${process.pid}:${unique++}:${Math.random().toString(36).slice(2, 8)}`;
      const args = [now, request.reported.length, member, ...request.rolling.flatMap((check) => [check.limit, check.windowMs])];
      const reply = await scripts.threadlineReserveWindows(keys.length, ...keys.map((key) => prefix + key), ...args);
      if (!Array.isArray(reply) || typeof reply[0] !== "number") throw new Error(`Unexpected rate windows script reply ${JSON.stringify(reply)}`);
      if (reply[0] === 1) return { allowed: true };
      return { allowed: false, retryAtMs: Number(reply[1]), key: keys[Number(reply[2]) - 1] };
    },

    async record(key, window, nowMs) {
      if (window.resetAtMs <= nowMs) return;
      await ready();
      const ttl = Math.ceil(window.resetAtMs - nowMs) + EXPIRY_MARGIN_MS;
      await scripts.threadlineRecordWindow(1, prefix + key, window.limit, window.remaining, Math.floor(window.resetAtMs), ttl);
    },

    async peek(key, nowMs) {
      await ready();
      const fields = await redis.hmget(prefix + key, "limit", "remaining", "reset");
      const [limit, remaining, reset] = fields.map((value) => (value === null ? Number.NaN : Number(value)));
      if (!(reset > nowMs)) return undefined;
      return { limit, remaining: Math.max(0, remaining), resetAtMs: reset };
    },

    close: connection.close,
  };
}
