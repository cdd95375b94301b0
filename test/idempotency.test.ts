/** Idempotency keys (spec: Idempotency; Constants; ARCHITECTURE: the fingerprint). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { keyProcedure, router } from "../core/trpc.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { commitPhase } from "../core/idempotency/record_phase.ts";
import { purgeExpiredKeys } from "../core/idempotency/idempotency_queries.ts";
import { canonicalJson } from "../core/idempotency/canonical_json.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const countTags = async (name: string) => {
  const [row] = await harness.services.sql<{ count: number }[]>`select count(*)::int as count from tags where lower(name) = lower(${name})`;
  return row.count;
};

test("canonical JSON ignores key order and whitespace but not content", () => {
  assert.equal(canonicalJson(JSON.parse('{ "b": 1, "a": {"d": [1, {"y":2,"x":1}], "c": null} }')), '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
  assert.notEqual(canonicalJson({}), canonicalJson({ account_id: "1" }));
});

describeMatrix(({ index, name, transport }) => {
  describe(`Idempotency-Key over ${name}`, () => {
    const post = (key: string | undefined, body: unknown, apiKey = harness.world.keys.write) =>
      transport(harness).request("POST", "/v1/tags", { key: apiKey, body, headers: key === undefined ? {} : { "Idempotency-Key": key } });
    const unique = (label: string) => `${label}-${index}-${Math.random().toString(36).slice(2, 8)}`;

    test("a retry with the same key and body replays the first answer once", async () => {
      const key = unique("k");
      const name = unique("tag");
      const first = await post(key, { name });
      assert.equal(first.status, 201);
      assert.equal(first.headers.get("idempotency-replayed"), null);
      const second = await post(key, { name });
      assert.equal(second.status, 201);
      assert.equal(second.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(second.body, first.body);
      assert.match(second.headers.get("x-ratelimit-limit") ?? "", /^\d+$/);
      assert.equal(await countTags(name), 1);
    });

    test("the same body with other key order or whitespace is the same request", async () => {
      const key = unique("k");
      const name = unique("tag");
      assert.equal((await post(key, `{"name":"${name}","color":"teal"}`)).status, 201);
      const again = await post(key, `{ "color" : "teal",\n "name": "${name}" }`);
      assert.equal(again.headers.get("idempotency-replayed"), "true");
    });

    test("the same key with a different body answers 409 idempotency_key_reuse", async () => {
      const key = unique("k");
      const name = unique("tag");
      await post(key, { name });
      for (const body of [{ name: unique("other") }, { name, account_id: harness.world.accounts.main }]) {
        const answer = await post(key, body);
        assert.equal(answer.status, 409);
        assert.equal(answer.body.error.code, "idempotency_key_reuse");
      }
    });

    test("a key of more than 64 characters answers 400 invalid_parameter; 64 is accepted", async () => {
      const long = await post("k".repeat(65), { name: unique("tag") });
      assert.equal(long.status, 400);
      assert.equal(long.body.error.code, "invalid_parameter");
      assert.match(long.body.error.message, /Idempotency-Key/);
      assert.equal((await post(`${index}`.repeat(64), { name: unique("tag") })).status, 201);
    });

    test("a request that fails validation stores nothing", async () => {
      const key = unique("k");
      const bad = await post(key, { name: "" });
      assert.equal(bad.status, 400);
      const good = await post(key, { name: unique("tag") });
      assert.equal(good.status, 201);
      assert.equal(good.headers.get("idempotency-replayed"), null);
    });

    test("keys are scoped per owner: another user's request with the same key runs on its own", async () => {
      const key = unique("k");
      const name = unique("tag");
      await post(key, { name });
      const theirs = await post(key, { name }, harness.world.keys.other_user);
      assert.equal(theirs.status, 201);
      assert.equal(theirs.headers.get("idempotency-replayed"), null);
      assert.notEqual(theirs.body.data.id, undefined);
      assert.equal(await countTags(name), 2);
    });
  });
});

describe("concurrency and recovery", () => {
  test("concurrent requests with one key run once; the others replay or answer 409 idempotency_in_flight", async () => {
    const [, http] = transports(harness);
    const name = `race-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        http.request("POST", "/v1/tags", { key: harness.world.keys.write, body: { name }, headers: { "Idempotency-Key": `race-${name}` } }),
      ),
    );
    assert.equal(await countTags(name), 1);
    const created = answers.filter((answer) => answer.status === 201 && answer.headers.get("idempotency-replayed") === null);
    assert.equal(created.length, 1);
    for (const answer of answers) {
      if (answer.status === 201) assert.deepEqual(answer.body, created[0].body);
      else {
        assert.equal(answer.status, 409);
        assert.equal(answer.body.error.code, "idempotency_in_flight");
        assert.ok(Number(answer.headers.get("retry-after")) >= 1);
      }
    }
  });

  describe("with a slow procedure", () => {
    let release: () => void = () => {};
    let seenRecoveryPoint = "";
    const probe = router({
      slow: keyProcedure
        .meta({ openapi: { method: "POST", path: "/v1/probe/slow" }, idempotent: true, successStatus: 201 })
        .input(z.object({ n: z.number() }))
        .output(z.object({ data: z.object({ n: z.number(), recovered: z.string() }) }))
        .mutation(async ({ ctx, input }) => {
          seenRecoveryPoint = ctx.idempotency?.recoveryPoint ?? "none";
          await new Promise<void>((resolve) => (release = resolve));
          await ctx.services.sql.begin((tx) => commitPhase(ctx, tx, "finished", { n: input.n }));
          return { data: { n: input.n, recovered: seenRecoveryPoint } };
        }),
    });
    const call = (key: string, n: number) => {
      const app = createHttpApp(probe, harness.services);
      return app.fetch(
        new Request("http://probe.test/v1/probe/slow", {
          method: "POST",
          headers: { Authorization: `Bearer ${harness.world.keys.write}`, "Idempotency-Key": key, "Content-Type": "application/json" },
          body: JSON.stringify({ n }),
        }),
      );
    };

    test("a retry while the first request runs answers 409 idempotency_in_flight with Retry-After, then the replay", async () => {
      const first = call("slow-1", 1);
      const deadline = Date.now() + 5_000;
      while (seenRecoveryPoint === "" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const during = await call("slow-1", 1);
      assert.equal(during.status, 409);
      assert.equal((await during.json()).error.code, "idempotency_in_flight");
      assert.ok(Number(during.headers.get("retry-after")) >= 1);
      release();
      const done = await first;
      assert.equal(done.status, 201);
      const after = await call("slow-1", 1);
      assert.equal(after.status, 201);
      assert.equal(after.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(await after.json(), { data: { n: 1, recovered: "started" } });
    });

    test("after the first request's process died, a retry takes over once the lease expires and resumes from its recovery point", async () => {
      const owner = harness.world.accounts.main;
      const { sql } = harness.services;
      const [{ fingerprint }] = await sql<{ fingerprint: string }[]>`select fingerprint from idempotency_keys where key = 'slow-1' and owner_id = ${owner}`;
      await sql`insert into idempotency_keys (owner_id, key, fingerprint, procedure, state, locked_until, recovery_point)
                values (${owner}, 'slow-2', ${fingerprint}, 'slow', 'running', now() + interval '1 minute', 'charged')`;
      const blocked = await call("slow-2", 1);
      assert.equal(blocked.status, 409);
      await sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = 'slow-2'`;
      seenRecoveryPoint = "";
      const retry = call("slow-2", 1);
      const deadline = Date.now() + 5_000;
      while (seenRecoveryPoint === "" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      release();
      const answer = await retry;
      assert.equal(answer.status, 201);
      assert.deepEqual(await answer.json(), { data: { n: 1, recovered: "charged" } });
      const [row] = await sql<{ recovery_point: string; state: string }[]>`select recovery_point, state from idempotency_keys where key = 'slow-2'`;
      assert.deepEqual({ ...row }, { recovery_point: "finished", state: "done" });
    });
  });

  test("keys are kept 24 hours: an older key is forgotten and purged", async () => {
    const [http] = transports(harness).slice(1);
    const body = { name: `old-${Date.now()}` };
    await http.request("POST", "/v1/tags", { key: harness.world.keys.write, body, headers: { "Idempotency-Key": "day-old" } });
    const { sql } = harness.services;
    await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'day-old'`;
    const reused = await http.request("POST", "/v1/tags", {
      key: harness.world.keys.write,
      body: { name: `new-${Date.now()}` },
      headers: { "Idempotency-Key": "day-old" },
    });
    assert.equal(reused.status, 201);
    assert.equal(reused.headers.get("idempotency-replayed"), null);
    await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'day-old'`;
    assert.ok((await purgeExpiredKeys(sql)) >= 1);
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from idempotency_keys where key = 'day-old'`;
    assert.equal(count, 0);
  });

  test("the tRPC surface honours Idempotency-Key too", async () => {
    const name = `trpc-${Date.now()}`;
    const send = () =>
      fetch(`${harness.baseUrl}/trpc/tags.create`, {
        method: "POST",
        headers: { Authorization: `Bearer ${harness.world.keys.write}`, "Idempotency-Key": `trpc-${name}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
      });
    const first = await send();
    assert.equal(first.status, 200);
    const second = await send();
    assert.equal(second.headers.get("idempotency-replayed"), "true");
    assert.deepEqual(await second.json(), await first.json());
    assert.equal(await countTags(name), 1);
  });
});
