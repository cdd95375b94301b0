/**
 * One Redis connection for a store that must answer fast while Redis is down (the counters, X's
 * rate windows): callers choose to fail open or closed, so commands never queue for a reconnect
 * that may never come. Connects on first use, remembers the last connection error as the cause of
 * a refusal, and closes without holding the process open.
 */
import { Redis } from "ioredis";

/** Callers choose to fail open or closed, so a dead Redis must answer fast. */
const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 1_000;
const DISCONNECT_TIMEOUT_MS = 200;

/** An opened connection: `ready()` before each command, `close()` once. */
export interface RedisConnection {
  redis: Redis;
  /** Resolves once connected; rejects at once while Redis is unreachable or after `close()`. */
  ready(): Promise<void>;
  /** Connected and open now: a command may go without awaiting `ready()` (one promise less a command). */
  isReady(): boolean;
  close(): Promise<void>;
}

/** Opens (lazily) a fast-failing connection to `url`; `what` names the store in errors. */
export function openRedisConnection(url: string, what: string, options: { autoPipelining?: boolean } = {}): RedisConnection {
  // Without the offline queue, commands sent while Redis is unreachable
  // reject at once instead of waiting for a reconnect that may never come.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // disconnect() arms this timer even when the socket is already closed
    // (Redis down), and it then holds the process open for its full length.
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  // Connection errors reach callers as rejected commands; remembering the
  // last one gives those rejections a cause, and listening keeps ioredis
  // from printing "Unhandled error event" on every reconnect attempt.
  let lastError: unknown;
  redis.on("error", (error: unknown) => {
    lastError = error;
  });
  let connecting: Promise<void> | undefined;
  let closed = false;
  return {
    redis,
    async ready() {
      // Checked first: connect() after close() would quietly open a new connection.
      if (closed) throw new Error(`${what} are closed`);
      // The first call waits for the initial connection; later ones never wait,
      // ioredis reconnects in the background while commands fail fast.
      connecting ??= redis.connect().catch(() => {});
      await connecting;
      if (redis.status !== "ready") throw new Error(`Redis is not ready (status "${redis.status}")`, { cause: lastError });
    },
    isReady() {
      return !closed && redis.status === "ready";
    },
    async close() {
      closed = true;
      if (redis.status === "ready") {
        try {
          await redis.quit();
          return;
        } catch {
          // Fall through: the connection dropped while quitting.
        }
      }
      // Also stops any pending reconnect timer, so the process can exit.
      redis.disconnect();
    },
  };
}
