/** A user's own API keys through the API (`/v1/keys`, beyond the spec): list, create, rotate, revoke. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { createKey, MAX_ACTIVE_KEYS } from "../core/auth/keys.ts";
import { createUser } from "../core/accounts/users.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

/** A new user with one write key: each case starts from its own user's keys. */
async function freshUser(name: string) {
  const user = await createUser(harness.services.sql, { name }, { username: name, name });
  const first = await createKey(harness.services.sql, { userId: user.userId, name: "first", scopes: ["read", "write"], prefix: "sxk_" });
  return { userId: user.userId, key: first.key, keyId: first.record.id };
}

describe("/v1/keys", () => {
  const call = (...args: Parameters<ReturnType<typeof transports>[number]["request"]>) => transports(harness)[1].request(...args);

  test("lists the caller's active keys, marks the one in use and never answers a key", async () => {
    const owner = await freshUser("keys_list");
    const created = await call("POST", "/v1/keys", { key: owner.key, body: { name: "laptop", scopes: ["read"] } });
    assert.equal(created.status, 201);
    assert.match(created.body.data.key, /^sxk_/);
    assert.deepEqual(created.body.data.scopes, ["read"]);
    assert.equal(created.body.data.current, false);

    const listed = await call("GET", "/v1/keys", { key: owner.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((key: any) => [key.name, key.current]),
      [
        ["laptop", false],
        ["first", true],
      ],
    );
    assert.ok(listed.body.data.every((key: any) => key.key === undefined && !JSON.stringify(key).includes(created.body.data.key)));
    // Another user's list never shows them.
    const other = await freshUser("keys_other");
    const theirs = await call("GET", "/v1/keys", { key: other.key });
    assert.deepEqual(
      theirs.body.data.map((key: any) => key.name),
      ["first"],
    );
  });

  test("a new key works at once with its scopes; write is the default and implies read", async () => {
    const owner = await freshUser("keys_scopes");
    const readOnly = (await call("POST", "/v1/keys", { key: owner.key, body: { name: "reader", scopes: ["read"] } })).body.data.key;
    assert.equal((await call("GET", "/v1/tags", { key: readOnly })).status, 200);
    const refused = await call("POST", "/v1/keys", { key: readOnly, body: { name: "escalate" } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "insufficient_scope");
    const full = await call("POST", "/v1/keys", { key: owner.key, body: { name: "full" } });
    assert.deepEqual(full.body.data.scopes, ["read", "write"]);
  });

  test("bad input answers 400 invalid_parameter", async () => {
    const owner = await freshUser("keys_input");
    for (const body of [{}, { name: "" }, { name: "x".repeat(101) }, { name: "k", scopes: ["admin"] }, { name: "k", scopes: [] }]) {
      const answer = await call("POST", "/v1/keys", { key: owner.key, body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error.code, "invalid_parameter", JSON.stringify(body));
    }
  });

  test("an 11th active key answers 403 cap_reached", async () => {
    const owner = await freshUser("keys_cap");
    for (let i = 1; i < MAX_ACTIVE_KEYS; i++) assert.equal((await call("POST", "/v1/keys", { key: owner.key, body: { name: `k${i}` } })).status, 201);
    const eleventh = await call("POST", "/v1/keys", { key: owner.key, body: { name: "eleventh" } });
    assert.equal(eleventh.status, 403);
    assert.equal(eleventh.body.error.code, "cap_reached");
  });

  test("rotation answers a new key with the same name and scopes; the old one is refused at once", async () => {
    const owner = await freshUser("keys_rotate");
    const laptop = (await call("POST", "/v1/keys", { key: owner.key, body: { name: "laptop", scopes: ["read"] } })).body.data;
    const rotated = await call("POST", `/v1/keys/${laptop.id}/rotate`, { key: owner.key });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.data.name, "laptop");
    assert.deepEqual(rotated.body.data.scopes, ["read"]);
    assert.notEqual(rotated.body.data.key, laptop.key);
    assert.equal((await call("GET", "/v1/tags", { key: laptop.key })).body.error.code, "invalid_api_key");
    assert.equal((await call("GET", "/v1/tags", { key: rotated.body.data.key })).status, 200);
    // The id in the path as text or number names the same key; the old one is gone.
    const again = await call("POST", `/v1/keys/${laptop.id}/rotate`, { key: owner.key });
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, "not_found");
  });

  test("revoking works on the key in use too, and never reaches another user's key (404 not_found)", async () => {
    const owner = await freshUser("keys_revoke");
    const other = await freshUser("keys_victim");
    const foreign = await call("DELETE", `/v1/keys/${other.keyId}`, { key: owner.key });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "not_found");
    assert.equal((await call("GET", "/v1/me", { key: other.key })).status, 200);

    const revoked = await call("DELETE", `/v1/keys/${owner.keyId}`, { key: owner.key });
    assert.equal(revoked.status, 200);
    assert.deepEqual(revoked.body.data, { id: owner.keyId, revoked: true });
    const after = await call("GET", "/v1/keys", { key: owner.key });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, "invalid_api_key");
  });
});
