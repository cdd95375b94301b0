/** Authentication, scopes, subscription and keys (spec: Authentication 1-7). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { createKey, MAX_ACTIVE_KEYS, revokeKey, rotateKey } from "../core/auth/keys.ts";
import { generateApiKey, isWellFormedApiKey } from "../core/auth/api_key_format.ts";
import { keysOfUser } from "../core/auth/keys_queries.ts";
import { createUser, updateUser } from "../core/accounts/users.ts";
import { ApiError } from "../core/errors.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

function assertRateHeaders(headers: Headers) {
  assert.match(headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
  assert.match(headers.get("x-ratelimit-remaining") ?? "", /^\d+$/);
  assert.match(headers.get("x-ratelimit-reset") ?? "", /^\d{10}$/);
}

describe("API key format", () => {
  test("issued keys start with sxk_ and carry a checksum that catches a typo", () => {
    const key = generateApiKey("sxk_");
    assert.match(key, /^sxk_[0-9A-Za-z]{30}$/);
    assert.equal(isWellFormedApiKey(key, "sxk_"), true);
    const typo = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    assert.equal(isWellFormedApiKey(typo, "sxk_"), false);
    assert.equal(isWellFormedApiKey(key, "tlk_"), false);
  });
});

for (const transport of [0, 1]) {
  describe(`authentication over ${transport === 0 ? "in-process" : "http"}`, () => {
    const call = (...args: Parameters<ReturnType<typeof transports>[number]["request"]>) => transports(harness)[transport].request(...args);

    test("a missing Authorization header answers 401 unauthorized", async () => {
      const answer = await call("GET", "/v1/tags");
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, "unauthorized");
    });

    test("a header that is not Bearer answers 401 unauthorized", async () => {
      for (const value of ["Basic abc", "Bearer", "Bearer ", "sxk_abc", "Bearer a b"]) {
        const answer = await call("GET", "/v1/tags", { headers: { Authorization: value } });
        assert.equal(answer.status, 401, value);
        assert.equal(answer.body.error.code, "unauthorized", value);
      }
    });

    test("an unknown, malformed or revoked key answers 401 invalid_api_key", async () => {
      for (const key of [generateApiKey("sxk_"), "sxk_nope", harness.world.keys.revoked]) {
        const answer = await call("GET", "/v1/tags", { key });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error.code, "invalid_api_key");
        assert.equal(typeof answer.body.error.message, "string");
      }
    });

    test("a read-only key gets 403 insufficient_scope on POST, PATCH and DELETE, with rate-limit headers", async () => {
      const { read } = harness.world.keys;
      const tagId = harness.world.tags[0];
      for (const [method, path, body] of [
        ["POST", "/v1/tags", { name: "nope" }],
        ["PATCH", `/v1/tags/${tagId}`, { name: "nope" }],
        ["DELETE", `/v1/tags/${tagId}`, undefined],
      ] as const) {
        const answer = await call(method, path, { key: read, body });
        assert.equal(answer.status, 403, `${method} ${path}`);
        assert.equal(answer.body.error.code, "insufficient_scope");
        assertRateHeaders(answer.headers);
      }
      const get = await call("GET", "/v1/tags", { key: read });
      assert.equal(get.status, 200);
    });

    test("a lapsed subscription answers 403 with the legacy string body", async () => {
      const answer = await call("GET", "/v1/tags", { key: harness.world.keys.lapsed });
      assert.equal(answer.status, 403);
      assert.equal(typeof answer.body.error, "string");
      assert.match(answer.body.error, /^subscription_required: /);
      assertRateHeaders(answer.headers);
    });

    test("trialing and team-billed subscriptions work", async () => {
      assert.equal((await call("GET", "/v1/me", { key: harness.world.keys.trial })).status, 200);
      const team = await createUser(
        harness.services.sql,
        { name: "Team", plan: "pro", subscriptionStatus: "team" },
        { username: `team_${transport}`, name: "Team" },
      );
      const { key } = await createKey(harness.services.sql, { userId: team.userId, name: "t", scopes: ["read", "write"], prefix: "sxk_" });
      const answer = await call("GET", "/v1/me", { key });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.subscription.status, "team");
    });

    test("more than 20 failed attempts a minute from one address answer 429 with Retry-After, and a valid key from that address still works", async () => {
      const ip = `203.0.113.${10 + transport}`;
      for (let i = 0; i < 20; i++) {
        const answer = await call("GET", "/v1/tags", { key: "sxk_wrong", ip });
        assert.equal(answer.status, 401, `attempt ${i + 1}`);
      }
      const limited = await call("GET", "/v1/tags", { ip });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, "rate_limited");
      assert.ok(Number(limited.headers.get("retry-after")) >= 1);
      assert.ok(limited.body.error.retry_after >= 1 && limited.body.error.retry_after <= 60);
      const ok = await call("GET", "/v1/tags", { key: harness.world.keys.write, ip });
      assert.equal(ok.status, 200);
      const other = await call("GET", "/v1/tags", { key: "sxk_wrong", ip: "203.0.113.99" });
      assert.equal(other.status, 401);
    });
  });
}

describe("subscription verification", () => {
  test("a verification failure answers 500 with the legacy internal_error string", async () => {
    const failing = await startHarness({ config: { faults: "billing" } });
    try {
      for (const transport of transports(failing)) {
        const answer = await transport.request("GET", "/v1/tags", { key: failing.world.keys.write });
        assert.equal(answer.status, 500, transport.name);
        assert.match(answer.body.error, /^internal_error: /);
      }
    } finally {
      await failing.close();
    }
  });

  test("a key resumes working when its user resubscribes", async () => {
    const lapsed = await createUser(harness.services.sql, { name: "L", subscriptionStatus: "lapsed" }, { username: "resub", name: "L" });
    const { key } = await createKey(harness.services.sql, { userId: lapsed.userId, name: "k", scopes: ["read"], prefix: "sxk_" });
    const [transport] = transports(harness);
    assert.equal((await transport.request("GET", "/v1/me", { key })).status, 403);
    await updateUser(harness.services.sql, lapsed.userId, { subscriptionStatus: "active" });
    harness.services.keyCache.clear();
    assert.equal((await transport.request("GET", "/v1/me", { key })).status, 200);
  });
});

describe("key management", () => {
  test("keys are stored hashed: the database never holds the key", async () => {
    const rows = await harness.services.sql`select key_hash, display from api_keys`;
    const key = harness.world.keys.write;
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.notEqual(row.key_hash, key);
      assert.ok(!String(row.display).includes(key.slice(8, -4)));
    }
  });

  test("a user holds at most 10 active keys", async () => {
    const user = await createUser(harness.services.sql, { name: "Many" }, { username: "many_keys", name: "Many" });
    const issued = await Promise.all(
      Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) =>
        createKey(harness.services.sql, { userId: user.userId, name: `k${i}`, scopes: ["read"], prefix: "sxk_" }),
      ),
    );
    assert.equal(issued.length, MAX_ACTIVE_KEYS);
    await assert.rejects(
      createKey(harness.services.sql, { userId: user.userId, name: "eleventh", scopes: ["read"], prefix: "sxk_" }),
      (error: unknown) => error instanceof ApiError && error.code === "cap_reached",
    );
    await revokeKey(harness.services.sql, harness.services.keyCache, issued[0].record.id);
    const again = await createKey(harness.services.sql, { userId: user.userId, name: "after revoke", scopes: ["read"], prefix: "sxk_" });
    assert.equal(again.record.name, "after revoke");
  });

  test("rotation issues a key with the same name and scopes and revokes the old one", async () => {
    const user = await createUser(harness.services.sql, { name: "Rot" }, { username: "rotator", name: "Rot" });
    const first = await createKey(harness.services.sql, { userId: user.userId, name: "laptop", scopes: ["read"], prefix: "sxk_" });
    const [transport] = transports(harness);
    assert.equal((await transport.request("GET", "/v1/me", { key: first.key })).status, 200);
    const second = await rotateKey(harness.services.sql, harness.services.keyCache, first.record.id, "sxk_");
    assert.notEqual(second.key, first.key);
    assert.equal(second.record.name, "laptop");
    assert.deepEqual(second.record.scopes, ["read"]);
    const old = await transport.request("GET", "/v1/me", { key: first.key });
    assert.equal(old.status, 401);
    assert.equal(old.body.error.code, "invalid_api_key");
    const fresh = await transport.request("GET", "/v1/me", { key: second.key });
    assert.equal(fresh.status, 200);
    assert.deepEqual(fresh.body.data.key.scopes, ["read"]);
    const active = await keysOfUser(harness.services.sql, user.userId, false);
    assert.deepEqual(
      active.map((row) => row.id),
      [second.record.id],
    );
  });

  test("a key reports its name, creation date and a last-used date that moves when used", async () => {
    const user = await createUser(harness.services.sql, { name: "Used" }, { username: "used_key", name: "Used" });
    const { key, record } = await createKey(harness.services.sql, { userId: user.userId, name: "ci", scopes: ["read", "write"], prefix: "sxk_" });
    assert.equal(record.last_used_at, null);
    const answer = await transports(harness)[1].request("GET", "/v1/me", { key });
    assert.equal(answer.body.data.key.name, "ci");
    assert.ok(Date.parse(answer.body.data.key.created_at) > 0);
    const [row] = await keysOfUser(harness.services.sql, user.userId, false);
    assert.ok(row.last_used_at instanceof Date);
  });
});

describe("revocation across processes", { skip: process.env.DATABASE_URL ? false : "needs DATABASE_URL: two processes share only a real PostgreSQL" }, () => {
  test("a key revoked in one process stops working in another within the cache bound", async () => {
    const other = await startHarness({ share: harness, config: { keyCacheTtlMs: 300 } });
    try {
      const user = await createUser(harness.services.sql, { name: "Rev" }, { username: "revoked_elsewhere", name: "Rev" });
      const { key, record } = await createKey(harness.services.sql, { userId: user.userId, name: "k", scopes: ["read"], prefix: "sxk_" });
      const [remote] = transports(other);
      assert.equal((await remote.request("GET", "/v1/me", { key })).status, 200);
      await revokeKey(harness.services.sql, harness.services.keyCache, record.id);
      const deadline = Date.now() + 5_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await remote.request("GET", "/v1/me", { key })).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(status, 401);
    } finally {
      await other.close();
    }
  });
});
