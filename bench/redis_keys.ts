/** Counting and deleting the bench's Redis keys, all under one random prefix. */
import { Redis } from "ioredis";

/** A random prefix, `tl:bench:<random>:`, so the bench never sees anyone else's keys. */
export function benchRedisPrefix(random: string): string {
  return `tl:bench:${random}:`;
}

/** How many keys start with `prefix`. */
export async function countKeys(url: string, prefix: string): Promise<number> {
  return withRedis(url, async (redis) => (await scanKeys(redis, prefix)).length);
}

/** Deletes every key starting with `prefix`; answers how many there were. */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  return withRedis(url, async (redis) => {
    const keys = await scanKeys(redis, prefix);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    return keys.length;
  });
}

async function scanKeys(redis: Redis, prefix: string): Promise<string[]> {
  // The prefix is `tl:bench:<hex>:`, so it holds no glob characters to escape.
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}

async function withRedis<T>(url: string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
