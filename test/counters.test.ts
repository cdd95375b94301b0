import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { createMemoryCounters } from "../adapters/counters/memory_counters.ts";
import { createRedisCounters } from "../adapters/counters/redis_counters.ts";
import { createFailOpenCounters } from "../adapters/counters/fail_open_counters.ts";
import { createFaultyCounters } from "../adapters/counters/faulty_counters.ts";
import { windowStart } from "../core/ports/counters.ts";
import type { CounterCheck, Counters } from "../core/ports/counters.ts";

const REDIS_URL = process.env.REDIS_URL;
const REDIS_SKIP = REDIS_URL ? false : "REDIS_URL not set: set REDIS_URL=redis://host:port to run the Redis counters cases";

/** 2025-06-01T12:00:00.000Z; times are passed explicitly, never read from the clock. */
const NOON = Date.UTC(2025, 5, 1, 12, 0, 0);

function check(key: string, limit: number, cost = 1, windowSeconds = 60): CounterCheck {
  return { key, limit, windowSeconds, cost };
}

/** Reads a window's count through the port: a zero-cost consume charges nothing. */
async function usedOf(counters: Counters, key: string, nowMs = NOON, windowSeconds = 60): Promise<number> {
  const result = await counters.consume([check(key, 1_000_000, 0, windowSeconds)], nowMs);
  return result.windows[0].used;
}

interface Implementation {
  name: string;
  skip: string | false;
  create(): Counters;
  /** A second handle on the same counters, as another server process would hold. */
  peer(first: Counters): Counters;
  cleanup(): Promise<void>;
}

const redisPrefix = `tl-test:${randomUUID()}:`;

const implementations: Implementation[] = [
  {
    name: "memory",
    skip: false,
    create: () => createMemoryCounters(),
    peer: (first) => first,
    cleanup: async () => {},
  },
  {
    name: "redis",
    skip: REDIS_SKIP,
    create: () => createRedisCounters({ url: REDIS_URL!, prefix: redisPrefix }),
    peer: () => createRedisCounters({ url: REDIS_URL!, prefix: redisPrefix }),
    cleanup: () => deleteKeys(`${redisPrefix}*`),
  },
];

async function deleteKeys(pattern: string): Promise<void> {
  const redis = new Redis(REDIS_URL!);
  try {
    const keys = await redis.keys(pattern);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

for (const impl of implementations) {
  describe(`${impl.name} counters`, { skip: impl.skip }, () => {
    const opened: Counters[] = [];
    function open(counters = impl.create()): Counters {
      opened.push(counters);
      return counters;
    }
    after(async () => {
      await Promise.all([...new Set(opened)].map((counters) => counters.close()));
      await impl.cleanup();
    });

    test("consume() within the limit is allowed and counts each call", async () => {
      const counters = open();
      for (const expected of [1, 2, 3]) {
        const result = await counters.consume([check("within", 3)], NOON);
        assert.equal(result.allowed, true);
        assert.equal(result.windows[0].used, expected);
        assert.equal(result.windows[0].remaining, 3 - expected);
      }
    });

    test("consume() refuses the (limit+1)th call and charges nothing", async () => {
      const counters = open();
      await counters.consume([check("over", 2)], NOON);
      await counters.consume([check("over", 2)], NOON);
      const refused = await counters.consume([check("over", 2)], NOON);
      assert.equal(refused.allowed, false);
      assert.deepEqual(refused.windows[0], {
        key: "over",
        limit: 2,
        windowSeconds: 60,
        used: 2,
        remaining: 0,
        resetAt: NOON / 1000 + 60,
      });
      assert.equal(await usedOf(counters, "over"), 2);
    });

    test("consume() charges no window when any one of them is full", async () => {
      const counters = open();
      assert.equal((await counters.consume([check("full", 1)], NOON)).allowed, true);
      const refused = await counters.consume([check("full", 1), check("roomy", 5)], NOON);
      assert.equal(refused.allowed, false);
      assert.deepEqual(
        refused.windows.map((w) => [w.key, w.used, w.remaining]),
        [
          ["full", 1, 0],
          ["roomy", 0, 5],
        ],
      );
      assert.equal(await usedOf(counters, "roomy"), 0);
      assert.equal(await usedOf(counters, "full"), 1);

      const allowed = await counters.consume([check("roomy", 5), check("other", 5, 2)], NOON);
      assert.equal(allowed.allowed, true);
      assert.deepEqual(
        allowed.windows.map((w) => w.used),
        [1, 2],
      );
    });

    test("consume() sums two checks on the same window before comparing to its limit", async () => {
      const counters = open();
      const refused = await counters.consume([check("twice", 3, 2), check("twice", 3, 2)], NOON);
      assert.equal(refused.allowed, false);
      assert.equal(await usedOf(counters, "twice"), 0);
    });

    test("windows are aligned to the clock minute", async () => {
      const counters = open();
      const first = await counters.consume([check("aligned", 2)], NOON);
      const lastMs = await counters.consume([check("aligned", 2)], NOON + 59_999);
      const nextMinute = await counters.consume([check("aligned", 2)], NOON + 60_000);
      assert.deepEqual([first.windows[0].used, lastMs.windows[0].used, nextMinute.windows[0].used], [1, 2, 1]);
      assert.equal((await counters.consume([check("aligned", 2)], NOON + 59_999)).allowed, false);
    });

    test("resetAt is the end of the window in epoch seconds", async () => {
      const counters = open();
      const at = NOON + 30_500;
      const result = await counters.consume([check("reset-min", 5), check("reset-day", 5, 1, 86_400)], at);
      assert.equal(result.windows[0].resetAt, Date.UTC(2025, 5, 1, 12, 1, 0) / 1000);
      assert.equal(result.windows[1].resetAt, Date.UTC(2025, 5, 2, 0, 0, 0) / 1000);
      assert.equal(windowStart(at, 86_400), Date.UTC(2025, 5, 1) / 1000);
    });

    test("release() gives units back but never below zero", async () => {
      const counters = open();
      await counters.consume([check("refund", 3, 2)], NOON);
      await counters.release([check("refund", 3, 1)], NOON);
      assert.equal(await usedOf(counters, "refund"), 1);
      await counters.release([check("refund", 3, 5)], NOON);
      assert.equal(await usedOf(counters, "refund"), 0);
      await counters.release([check("never-charged", 3, 5)], NOON);
      assert.equal(await usedOf(counters, "never-charged"), 0);
      // Had the count gone negative, a full-limit charge would report less than 3.
      const full = await counters.consume([check("refund", 3, 3)], NOON);
      assert.equal(full.allowed, true);
      assert.equal(full.windows[0].used, 3);
      assert.equal((await counters.consume([check("refund", 3)], NOON)).allowed, false);
    });

    test("consume() charges a multi-unit cost whole or not at all", async () => {
      const counters = open();
      const used = [];
      for (const cost of [4, 4, 4, 2]) {
        const result = await counters.consume([check("units", 10, cost)], NOON);
        used.push([result.allowed, result.windows[0].used]);
      }
      assert.deepEqual(used, [
        [true, 4],
        [true, 8],
        [false, 8],
        [true, 10],
      ]);
    });

    test("the fail-open wrapper answers from its primary while the primary works", async () => {
      const fallback = createMemoryCounters();
      const errors: unknown[] = [];
      const counters = createFailOpenCounters(open(), fallback, (error) => errors.push(error));
      assert.equal((await counters.consume([check("open-ok", 1)], NOON)).allowed, true);
      assert.equal((await counters.consume([check("open-ok", 1)], NOON)).allowed, false);
      assert.equal(await usedOf(fallback, "open-ok"), 0);
      assert.deepEqual(errors, []);
      await fallback.close();
    });

    test("50 parallel consumes with limit 10 allow exactly 10", async () => {
      const first = open();
      const second = open(impl.peer(first));
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? first : second).consume([check("race", 10)], NOON)));
      assert.equal(results.filter((result) => result.allowed).length, 10);
      assert.deepEqual(
        results
          .filter((result) => result.allowed)
          .map((result) => result.windows[0].used)
          .sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      assert.equal(await usedOf(first, "race"), 10);
    });

    const bucket = (key: string, cost = 1) => ({ key, burst: 20, intervalMs: 3_000, cost });

    test("takeTokens() allows a burst of 20, refuses the 21st for 3 s, then allows one more", async () => {
      const counters = open();
      const key = `burst-${randomUUID()}`;
      for (let i = 0; i < 20; i++) {
        const state = await counters.takeTokens(bucket(key), NOON);
        assert.equal(state.allowed, true);
        assert.equal(state.remaining, 19 - i);
      }
      const refused = await counters.takeTokens(bucket(key), NOON);
      assert.deepEqual([refused.allowed, refused.remaining, refused.retryAfterMs, refused.fullAtMs], [false, 0, 3_000, NOON + 60_000]);
      assert.equal((await counters.takeTokens(bucket(key), NOON + 2_999)).allowed, false);
      const later = await counters.takeTokens(bucket(key), NOON + 3_000);
      assert.deepEqual([later.allowed, later.remaining], [true, 0]);
      assert.equal((await counters.takeTokens(bucket(key), NOON + 3_000)).allowed, false);
      // A full minute of rest refills the whole burst, not more.
      const rested = await counters.takeTokens(bucket(key, 0), NOON + 3_000 + 120_000);
      assert.deepEqual([rested.allowed, rested.remaining], [true, 20]);
    });

    test("takeTokens() takes a multi-unit cost whole or not at all, and cost 0 only reads", async () => {
      const counters = open();
      const key = `multi-${randomUUID()}`;
      assert.equal((await counters.takeTokens(bucket(key, 15), NOON)).allowed, true);
      const refused = await counters.takeTokens(bucket(key, 6), NOON);
      assert.deepEqual([refused.allowed, refused.remaining, refused.retryAfterMs], [false, 5, 3_000]);
      assert.equal((await counters.takeTokens(bucket(key, 0), NOON)).remaining, 5);
      assert.equal((await counters.takeTokens(bucket(key, 5), NOON)).allowed, true);
    });

    test("30 parallel takes from one bucket of 20 allow exactly 20, across processes", async () => {
      const first = open();
      const second = open(impl.peer(first));
      const key = `race-${randomUUID()}`;
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).takeTokens(bucket(key), NOON)));
      assert.equal(results.filter((state) => state.allowed).length, 20);
    });
  });
}

describe("fail-open and faulty counters", () => {
  test("faulty counters reject consume(), takeTokens() and release()", async () => {
    const counters = createFaultyCounters();
    const message = "Counters unavailable (THREADLINE_FAULTS=counters)";
    await assert.rejects(counters.consume([check("k", 1)], NOON), { message });
    await assert.rejects(counters.release([check("k", 1)], NOON), { message });
    await assert.rejects(counters.takeTokens({ key: "k", burst: 1, intervalMs: 1_000, cost: 1 }, NOON), { message });
  });

  test("the fail-open wrapper falls back when the primary rejects", async () => {
    const fallback = createMemoryCounters();
    const errors: unknown[] = [];
    const counters = createFailOpenCounters(createFaultyCounters(), fallback, (error) => errors.push(error));
    assert.equal((await counters.consume([check("fallback", 1)], NOON)).allowed, true);
    assert.equal((await counters.consume([check("fallback", 1)], NOON)).allowed, false);
    await counters.release([check("fallback", 1)], NOON);
    assert.equal(await usedOf(fallback, "fallback"), 0);
    const tokens = { key: "fallback-bucket", burst: 1, intervalMs: 1_000, cost: 1 };
    assert.equal((await counters.takeTokens(tokens, NOON)).allowed, true);
    assert.equal((await counters.takeTokens(tokens, NOON)).allowed, false);
    assert.equal(errors.length, 5);
    assert.match(String(errors[0]), /THREADLINE_FAULTS=counters/);
    await counters.close();
  });

  test("the fail-open wrapper still works without an onError callback", async () => {
    const counters = createFailOpenCounters(createFaultyCounters(), createMemoryCounters());
    assert.equal((await counters.consume([check("quiet", 1)], NOON)).allowed, true);
    await counters.close();
  });
});

describe("redis counters without a server", () => {
  test("consume() rejects quickly when Redis is unreachable, and fail-open falls back", async () => {
    const port = await closedPort();
    const redis = createRedisCounters({ url: `redis://127.0.0.1:${port}` });
    try {
      const started = performance.now();
      await assert.rejects(redis.consume([check("down", 1)], NOON), /not ready/);
      await assert.rejects(redis.consume([check("down", 1)], NOON), /not ready/);
      assert.ok(performance.now() - started < 3_000, "expected a rejection within 3 s");

      const errors: unknown[] = [];
      const counters = createFailOpenCounters(redis, createMemoryCounters(), (error) => errors.push(error));
      assert.equal((await counters.consume([check("down", 1)], NOON)).allowed, true);
      assert.equal(errors.length, 1);
    } finally {
      await redis.close();
    }
    await assert.rejects(redis.consume([check("down", 1)], NOON), /closed/);
  });
});

describe("redis counters keys", { skip: REDIS_SKIP }, () => {
  test("keys are named prefix + key + window start and expire shortly after the window", async () => {
    const prefix = `tl-test:${randomUUID()}:`;
    const counters = createRedisCounters({ url: REDIS_URL!, prefix });
    const raw = new Redis(REDIS_URL!);
    try {
      const now = Date.now();
      await counters.consume([check("ttl", 5, 1, 3_600)], now);
      const start = windowStart(now, 3_600);
      const key = `${prefix}ttl:${start}`;
      assert.equal(await raw.get(key), "1");
      const ttl = await raw.pttl(key);
      const untilEnd = (start + 3_600) * 1000 - now;
      assert.ok(ttl > untilEnd - 1_000, `expected the key to outlive its window, PTTL ${ttl}`);
      assert.ok(ttl <= untilEnd + 60_000, `expected the key to expire soon after its window, PTTL ${ttl}`);
    } finally {
      await counters.close();
      const keys = await raw.keys(`${prefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      await raw.quit();
    }
  });
});

describe("redis counters batching", { skip: REDIS_SKIP }, () => {
  test("consumes issued in one turn share one script call, decided in the order issued, each all or nothing", async () => {
    const prefix = `tl-test:${randomUUID()}:`;
    const counters = createRedisCounters({ url: REDIS_URL!, prefix });
    const raw = new Redis(REDIS_URL!);
    const scriptCalls = async () => {
      const stats = await raw.info("commandstats");
      return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    try {
      const now = Date.now();
      await counters.consume([check("warm", 5)], now);
      const before = await scriptCalls();
      // Five of one window of 3, issued in order; a consume charging a full window and a fresh
      // one, which must charge neither; and one on another owner, untouched by the rest.
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => counters.consume([check("shared", 3)], now)),
        counters.consume([check("shared", 3), check("fresh", 10)], now),
        counters.consume([check("other", 1)], now),
      ]);
      assert.equal((await scriptCalls()) - before, 1, "the seven consumes left as one script call");
      assert.deepEqual(
        results.map((result) => result.allowed),
        [true, true, true, false, false, false, true],
      );
      assert.deepEqual(
        results.slice(0, 3).map((result) => result.windows[0].remaining),
        [2, 1, 0],
      );
      assert.equal(results[5].windows[1].used, 0, "the refused consume charged no window");
      assert.equal(await raw.get(`${prefix}fresh:${windowStart(now, 60)}`), null);
      assert.equal(await raw.get(`${prefix}shared:${windowStart(now, 60)}`), "3");
    } finally {
      await counters.close();
      const keys = await raw.keys(`${prefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      await raw.quit();
    }
  });
});

/** A port nothing listens on: bind an ephemeral one, then free it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === "object");
  return address.port;
}
