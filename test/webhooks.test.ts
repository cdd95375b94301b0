/**
 * The webhooks API (docs/webhooks.md): create with the secret shown once, list, get, PATCH,
 * DELETE, the test ping verified with the `standardwebhooks` package, secret rotation, the
 * deliveries list, a manual retry, the outbound guard on URLs, the 10-endpoint cap and every
 * error code, through both transports. Delivery itself: webhook_delivery.test.ts.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";
import { WEBHOOK_TEST_PINGS } from "../core/webhooks/webhook_deliveries.ts";
import { clearExpiredSecrets } from "../core/webhooks/webhooks_queries.ts";
import { resealSecrets } from "../core/webhooks/reseal_secrets.ts";
import { createSecretBox, parseEncryptionKey } from "../adapters/crypto/secret_box.ts";
import { randomBytes } from "node:crypto";

let harness: Harness;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  // The receiver is on loopback: the operator allows 127.0.0.1 (and so http to it), nothing else.
  harness = await startHarness({ config: { outboundAllowHosts: "127.0.0.1" } });
});
after(async () => {
  await harness.close();
  await receiver.close();
});

let paths = 0;
const hookPath = () => `/hooks/${++paths}`;

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });
  const create = async (extra: Record<string, unknown> = {}, key = harness.world.keys.write) => {
    const path = hookPath();
    const answer = await send("POST", "/v1/webhooks", { url: `${receiver.base}${path}`, ...extra }, key);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return { ...answer.body.data, path };
  };
  const remove = (id: number, key = harness.world.keys.write) => send("DELETE", `/v1/webhooks/${id}`, undefined, key);

  describe(`webhooks API (${name})`, () => {
    test("create answers 201 with a whsec_ secret shown once; get and list never show it", async () => {
      const created = await create({ events: ["post.sent", "dataset.ready"], description: "  My app  " });
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.deepEqual(created.events, ["post.sent", "dataset.ready"]);
      assert.equal(created.description, "My app");
      assert.equal(created.enabled, true);
      assert.equal(created.disabled_reason, null);
      assert.equal(created.previous_secret_expires_at, null);
      const got = await send("GET", `/v1/webhooks/${created.id}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.data.secret, undefined);
      assert.equal(got.body.data.url, `${receiver.base}${created.path}`);
      const listed = await send("GET", "/v1/webhooks?limit=100");
      assert.equal(listed.status, 200);
      const mine = listed.body.data.find((item: any) => item.id === created.id);
      assert.ok(mine, "the new endpoint is listed");
      assert.equal(mine.secret, undefined);
      assert.equal(listed.body.pagination.total, listed.body.data.length);
      await remove(created.id);
    });

    test("events omitted or holding * mean every type; repeats are dropped", async () => {
      const all = await create();
      assert.deepEqual(all.events, ["*"]);
      const star = await create({ events: ["post.sent", "*"] });
      assert.deepEqual(star.events, ["*"]);
      const repeated = await create({ events: ["post.sent", "post.sent"] });
      assert.deepEqual(repeated.events, ["post.sent"]);
      for (const { id } of [all, star, repeated]) await remove(id);
    });

    test("bad bodies are 400 invalid_parameter", async () => {
      expectError(await send("POST", "/v1/webhooks", {}), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/webhooks", { url: "not a url" }), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/webhooks", { url: "ftp://example.com/hook" }), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/webhooks", { url: `${receiver.base}/x`, events: ["post.exploded"] }), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/webhooks", { url: `${receiver.base}/x`, events: [] }), 400, "invalid_parameter");
      expectError(await send("POST", "/v1/webhooks", { url: `${receiver.base}/x`, enabled: "yes" }), 400, "invalid_parameter");
      const created = await create();
      expectError(await send("PATCH", `/v1/webhooks/${created.id}`, {}), 400, "invalid_parameter");
      expectError(await send("GET", "/v1/webhooks/abc"), 400, "invalid_parameter");
      await remove(created.id);
    });

    test("the outbound guard refuses private, loopback and reserved URLs not allowed by the operator (400 url_not_allowed)", async () => {
      for (const url of [
        "https://10.1.2.3/hook",
        "https://192.168.1.10/hook",
        "https://169.254.169.254/latest",
        "https://[::1]/hook",
        // A name resolving to loopback: refused on its resolved address.
        "https://localhost/hook",
        // http only for hosts the operator allows.
        "http://example.com/hook",
        // Loopback by another name than the allowed one.
        `http://localhost:${new URL(receiver.base).port}/hook`,
        "https://user:pass@example.com/hook",
      ]) {
        expectError(await send("POST", "/v1/webhooks", { url }), 400, "url_not_allowed");
      }
      const created = await create();
      expectError(await send("PATCH", `/v1/webhooks/${created.id}`, { url: "https://10.0.0.7/hook" }), 400, "url_not_allowed");
      assert.equal((await send("GET", `/v1/webhooks/${created.id}`)).body.data.url, `${receiver.base}${created.path}`, "a refused PATCH changes nothing");
      await remove(created.id);
    });

    test("PATCH changes only the fields sent; DELETE removes; a second DELETE is 404 webhook_not_found", async () => {
      const created = await create({ description: "first" });
      const changed = await send("PATCH", `/v1/webhooks/${created.id}`, { events: ["lead.found"], enabled: false });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual(changed.body.data.events, ["lead.found"]);
      assert.equal(changed.body.data.enabled, false);
      assert.equal(changed.body.data.description, "first");
      const cleared = await send("PATCH", `/v1/webhooks/${created.id}`, { description: null });
      assert.equal(cleared.body.data.description, null);
      const gone = await remove(created.id);
      assert.equal(gone.status, 200);
      assert.deepEqual(gone.body.data, { id: created.id, deleted: true });
      expectError(await remove(created.id), 404, "webhook_not_found");
      expectError(await send("GET", `/v1/webhooks/${created.id}`), 404, "webhook_not_found");
    });

    test("another user's endpoint and a missing one are 404 webhook_not_found on every operation", async () => {
      const theirs = await create({}, harness.world.keys.other_user);
      for (const id of [theirs.id, 99_999_999]) {
        expectError(await send("GET", `/v1/webhooks/${id}`), 404, "webhook_not_found");
        expectError(await send("PATCH", `/v1/webhooks/${id}`, { enabled: false }), 404, "webhook_not_found");
        expectError(await send("POST", `/v1/webhooks/${id}/test`), 404, "webhook_not_found");
        expectError(await send("POST", `/v1/webhooks/${id}/rotate-secret`), 404, "webhook_not_found");
        expectError(await send("GET", `/v1/webhooks/${id}/deliveries`), 404, "webhook_not_found");
        expectError(await send("POST", `/v1/webhooks/${id}/deliveries/1/retry`), 404, "webhook_not_found");
        expectError(await remove(id), 404, "webhook_not_found");
      }
      assert.equal(
        (await send("GET", "/v1/webhooks?limit=100")).body.data.some((item: any) => item.id === theirs.id),
        false,
      );
      await remove(theirs.id, harness.world.keys.other_user);
    });

    test("a read key cannot create (403 insufficient_scope) but can list", async () => {
      expectError(await send("POST", "/v1/webhooks", { url: `${receiver.base}/read` }, harness.world.keys.read), 403, "insufficient_scope");
      assert.equal((await send("GET", "/v1/webhooks", undefined, harness.world.keys.read)).status, 200);
    });

    test("the test ping is posted now, signed so Webhook.verify accepts it, and listed among the deliveries", async () => {
      const created = await create({ events: ["post.sent"] });
      const ping = await send("POST", `/v1/webhooks/${created.id}/test`);
      assert.equal(ping.status, 200, JSON.stringify(ping.body));
      assert.equal(ping.body.data.status, "succeeded");
      assert.equal(ping.body.data.response_code, 200);
      assert.equal(ping.body.data.attempt, 1);
      assert.equal(typeof ping.body.data.latency_ms, "number");
      assert.equal(ping.body.data.event_type, "ping");
      const [delivery] = receiver.on(created.path);
      const payload = new Webhook(created.secret).verify(delivery.body, delivery.headers) as any;
      assert.equal(payload.type, "ping");
      assert.equal(payload.id, delivery.headers["webhook-id"]);
      assert.equal(payload.id, ping.body.data.event_id);
      assert.deepEqual(payload.object, { type: "webhook", id: String(created.id) });
      assert.equal(payload.account_id, harness.world.accounts.main);
      assert.throws(
        () => new Webhook(`whsec_${Buffer.alloc(24, 7).toString("base64")}`).verify(delivery.body, delivery.headers),
        "another secret does not verify",
      );
      const listed = await send("GET", `/v1/webhooks/${created.id}/deliveries`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.length, 1);
      assert.equal(listed.body.data[0].id, ping.body.data.id);
      assert.equal(listed.body.data[0].next_retry_at, null);
      await remove(created.id);
    });

    test("a failed ping waits for a retry; the retry endpoint posts it again now with the same webhook-id", async () => {
      const created = await create();
      receiver.behave(created.path, (_request, n) => ({ status: n === 0 ? 503 : 204 }));
      const ping = await send("POST", `/v1/webhooks/${created.id}/test`);
      assert.equal(ping.body.data.status, "pending");
      assert.equal(ping.body.data.response_code, 503);
      assert.match(ping.body.data.error, /503/);
      assert.ok(Date.parse(ping.body.data.next_retry_at) > Date.now(), "the next retry is in the future");
      const retried = await send("POST", `/v1/webhooks/${created.id}/deliveries/${ping.body.data.id}/retry`);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.data.status, "succeeded");
      assert.equal(retried.body.data.attempt, 2);
      assert.equal(retried.body.data.response_code, 204);
      assert.equal(retried.body.data.next_retry_at, null);
      const [first, second] = receiver.on(created.path);
      assert.equal(second.headers["webhook-id"], first.headers["webhook-id"]);
      assert.equal(second.body, first.body);
      expectError(await send("POST", `/v1/webhooks/${created.id}/deliveries/99999999/retry`), 404, "delivery_not_found");
      // A delivery of another endpoint is not this one's.
      const other = await create();
      expectError(await send("POST", `/v1/webhooks/${other.id}/deliveries/${ping.body.data.id}/retry`), 404, "delivery_not_found");
      for (const { id } of [created, other]) await remove(id);
    });

    test("deliveries page newest first", async () => {
      const created = await create();
      const ids: number[] = [];
      for (let n = 0; n < 3; n++) ids.push((await send("POST", `/v1/webhooks/${created.id}/test`)).body.data.id);
      const first = await send("GET", `/v1/webhooks/${created.id}/deliveries?limit=2`);
      assert.deepEqual(
        first.body.data.map((item: any) => item.id),
        [ids[2], ids[1]],
      );
      assert.deepEqual(first.body.pagination, { page: 1, limit: 2, has_more: true, total: 3 });
      const second = await send("GET", `/v1/webhooks/${created.id}/deliveries?limit=2&page=2`);
      assert.deepEqual(
        second.body.data.map((item: any) => item.id),
        [ids[0]],
      );
      assert.equal(second.body.pagination.has_more, false);
      await remove(created.id);
    });

    test("rotate-secret shows a new secret once; for 24 hours pings carry both signatures and either secret verifies", async () => {
      const created = await create();
      const rotated = await send("POST", `/v1/webhooks/${created.id}/rotate-secret`);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.match(rotated.body.data.secret, /^whsec_/);
      assert.notEqual(rotated.body.data.secret, created.secret);
      const expires = Date.parse(rotated.body.data.previous_secret_expires_at);
      assert.ok(Math.abs(expires - (Date.now() + 86_400_000)) < 60_000, "the old secret signs for 24 hours");
      await send("POST", `/v1/webhooks/${created.id}/test`);
      const [delivery] = receiver.on(created.path);
      assert.equal(delivery.headers["webhook-signature"].split(" ").length, 2);
      for (const secret of [created.secret, rotated.body.data.secret]) new Webhook(secret).verify(delivery.body, delivery.headers);
      assert.equal((await send("GET", `/v1/webhooks/${created.id}`)).body.data.secret, undefined);
      // After its 24 hours the old secret is forgotten, not merely unused.
      const { sql, secretBox } = harness.services;
      const stored = async () =>
        (await sql<{ secret: string; previous_secret: string | null }[]>`select secret, previous_secret from webhooks where id = ${created.id}`)[0];
      const previous = async () => (await stored()).previous_secret;
      // Both are stored sealed (docs/webhooks.md, "Secrets at rest"), never in plain.
      const row = await stored();
      for (const value of [row.secret, row.previous_secret as string]) {
        assert.match(value, /^tl1\.[0-9a-f]{8}\./);
        assert.ok(!value.includes(created.secret.slice(6)) && !value.includes(rotated.body.data.secret.slice(6)), "no secret in plain");
      }
      assert.equal(secretBox.open(row.secret), rotated.body.data.secret);
      await clearExpiredSecrets(sql, new Date(expires - 1_000));
      assert.equal(secretBox.open((await previous()) as string), created.secret, "kept while it still signs");
      await clearExpiredSecrets(sql, new Date(expires + 1_000));
      assert.equal(await previous(), null);
      await remove(created.id);
    });
  });
});

describe("secrets at rest", () => {
  test("a created endpoint's secret is stored sealed, and its deliveries verify with the secret shown", async () => {
    const [transport] = transports(harness);
    const path = hookPath();
    const created = await transport.request("POST", "/v1/webhooks", { key: harness.world.keys.write, body: { url: `${receiver.base}${path}` } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const secret: string = created.body.data.secret;
    const [row] = await harness.services.sql<{ secret: string }[]>`select secret from webhooks where id = ${created.body.data.id}`;
    assert.match(row.secret, /^tl1\.[0-9a-f]{8}\./, "sealed under the current key");
    assert.ok(!row.secret.includes(secret.slice(6)), "the database does not hold the secret in plain");
    await transport.request("POST", `/v1/webhooks/${created.body.data.id}/test`, { key: harness.world.keys.write });
    const [delivery] = receiver.on(path);
    new Webhook(secret).verify(delivery.body, delivery.headers);
    await transport.request("DELETE", `/v1/webhooks/${created.body.data.id}`, { key: harness.world.keys.write });
  });

  test("reseal_webhook_secrets seals secrets stored in plain and those under a replaced key; deliveries keep verifying", async () => {
    const { sql, secretBox } = harness.services;
    const [transport] = transports(harness);
    const path = hookPath();
    const created = await transport.request("POST", "/v1/webhooks", { key: harness.world.keys.write, body: { url: `${receiver.base}${path}` } });
    const id: number = created.body.data.id;
    const secret: string = created.body.data.secret;
    // As stored before sealing existed.
    await sql`update webhooks set secret = ${secret} where id = ${id}`;
    const storedSecret = async () => (await sql<{ secret: string }[]>`select secret from webhooks where id = ${id}`)[0].secret;
    assert.ok((await resealSecrets(sql, secretBox)) >= 1);
    assert.ok((await storedSecret()).startsWith(secretBox.currentPrefix), "sealed under the current key");
    assert.equal(secretBox.open(await storedSecret()), secret);
    assert.equal(await resealSecrets(sql, secretBox), 0, "a second run finds nothing");
    await transport.request("POST", `/v1/webhooks/${id}/test`, { key: harness.world.keys.write });
    new Webhook(secret).verify(receiver.on(path)[0].body, receiver.on(path)[0].headers);
    // The operator replaces ENCRYPTION_KEY: the old key becomes ENCRYPTION_KEY_PREVIOUS until the reseal ran.
    const oldKey = (await sql<{ value: string }[]>`select value from instance_secrets where name = 'encryption_key'`)[0]?.value ?? harness.config.encryptionKey;
    const newKey = randomBytes(32).toString("base64");
    const replaced = createSecretBox({ key: newKey, previousKey: oldKey });
    assert.equal(replaced.open(await storedSecret()), secret, "the previous key still opens");
    assert.ok((await resealSecrets(sql, replaced)) >= 1);
    assert.equal(createSecretBox({ key: newKey }).open(await storedSecret()), secret, "the new key alone opens it now");
    assert.throws(() => createSecretBox({ key: randomBytes(32).toString("base64") }).open(`${replaced.currentPrefix}AAAA`), /ENCRYPTION_KEY_PREVIOUS/);
    await transport.request("DELETE", `/v1/webhooks/${id}`, { key: harness.world.keys.write });
    // Every other endpoint back under the harness's key, for the tests after this one.
    await resealSecrets(sql, createSecretBox({ key: oldKey as string, previousKey: newKey }));
  });

  test("a sealed value is random per seal, tamper-evident, and an ENCRYPTION_KEY must be 32 bytes", () => {
    const box = createSecretBox({ key: randomBytes(32).toString("hex") });
    const first = box.seal("whsec_abc");
    assert.notEqual(box.seal("whsec_abc"), first, "a new nonce each time");
    assert.equal(box.open(first), "whsec_abc");
    // The second-to-last character changed (the last may carry padding bits a decoder ignores).
    const tampered = `${first.slice(0, -2)}${first.at(-2) === "A" ? "B" : "A"}${first.slice(-1)}`;
    assert.throws(() => box.open(tampered));
    for (const bad of ["short", randomBytes(16).toString("base64"), "z".repeat(64)]) {
      assert.throws(() => parseEncryptionKey(bad, "ENCRYPTION_KEY"), /ENCRYPTION_KEY must be 32 random bytes/);
    }
  });
});

describe("the demo world's webhook", () => {
  test("webhooks.endpoint is A's disabled demo receiver with its queued ping (webhooks.delivery)", async () => {
    const { webhooks, keys } = harness.world;
    const transport = transports(harness)[1];
    const got = await transport.request("GET", `/v1/webhooks/${webhooks.endpoint}`, { key: keys.read });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.equal(got.body.data.description, "Demo receiver");
    assert.equal(got.body.data.enabled, false, "a serving demo posts nowhere");
    assert.match(got.body.data.url, /^https:\/\/[a-z.]+\.example\//);
    const deliveries = await transport.request("GET", `/v1/webhooks/${webhooks.endpoint}/deliveries`, { key: keys.read });
    assert.equal(deliveries.status, 200, JSON.stringify(deliveries.body));
    const delivery = deliveries.body.data.find((item: any) => item.id === webhooks.delivery);
    assert.ok(delivery, "the demo delivery is listed");
    assert.equal(delivery.event_type, "ping");
    assert.equal(delivery.status, "pending");
    // Another user cannot see it.
    expectError(await transport.request("GET", `/v1/webhooks/${webhooks.endpoint}`, { key: keys.other_user }), 404, "webhook_not_found");
  });
});

describe("webhooks cap", () => {
  test("a user has at most 10 endpoints: the 11th is 403 cap_reached; after a delete one fits again", async () => {
    const [transport] = transports(harness);
    const key = harness.world.keys.other_user;
    const send = (method: string, path: string, body?: unknown) => transport.request(method, path, { key, body });
    const existing = (await send("GET", "/v1/webhooks?limit=100")).body.data.length;
    const ids: number[] = [];
    for (let n = existing; n < 10; n++) {
      const answer = await send("POST", "/v1/webhooks", { url: `${receiver.base}/cap/${n}` });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      ids.push(answer.body.data.id);
    }
    expectError(await send("POST", "/v1/webhooks", { url: `${receiver.base}/cap/11` }), 403, "cap_reached");
    assert.equal((await send("DELETE", `/v1/webhooks/${ids[0]}`)).status, 200);
    const again = await send("POST", "/v1/webhooks", { url: `${receiver.base}/cap/again` });
    assert.equal(again.status, 201);
    for (const id of [...ids.slice(1), again.body.data.id]) await send("DELETE", `/v1/webhooks/${id}`);
  });
});

describe("webhook test pings are bounded", () => {
  test("30 pings per owner in 10 minutes: the 31st is 429 rate_limited naming webhook_test_pings, with Retry-After", async () => {
    const key = harness.world.keys.other_user;
    const send = (method: string, path: string, body?: unknown) => transports(harness)[0].request(method, path, { key, body });
    const created = await send("POST", "/v1/webhooks", { url: `${receiver.base}/pings/bounded` });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id;
    for (let n = 1; n <= WEBHOOK_TEST_PINGS.limit; n++) {
      const ping = await send("POST", `/v1/webhooks/${id}/test`);
      assert.equal(ping.status, 200, `ping ${n}: ${JSON.stringify(ping.body)}`);
    }
    const refused = await send("POST", `/v1/webhooks/${id}/test`);
    expectError(refused, 429, "rate_limited");
    assert.equal(refused.body.error.bucket, "webhook_test_pings");
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter > 0 && retryAfter <= 601, String(retryAfter));
    await send("DELETE", `/v1/webhooks/${id}`);
  });
});
