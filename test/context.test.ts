/** Context settings and products (spec: Identity and context, rule 6, Authentication 8; supplement: Context). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { linkAccount, userByEmail } from "../core/accounts/users.ts";

let harness: Harness;
let secondLinked = "";
before(async () => {
  harness = await startHarness();
  const ada = await userByEmail(harness.services.sql, "ada@demo.threadline.local");
  secondLinked = await linkAccount(harness.services.sql, ada!.user_id, { username: "ada_context", name: "Ada Context" });
});
after(() => harness.close());

test("the demo world's main account has the demo products in its context", async () => {
  const answer = await transports(harness)[0].request("GET", "/v1/context", { key: harness.world.keys.write });
  assert.deepEqual(
    answer.body.data.products.map((product: any) => product.id),
    harness.world.products,
  );
  assert.equal(harness.world.products.length, 2);
});

describeMatrix(({ index, name }) => {
  describe(`context over ${name}`, () => {
    // Each transport works on its own account so the cases do not see each other's writes.
    const account = () => (index === 0 ? harness.world.accounts.linked : secondLinked);
    const call = (method: string, path: string, body?: Record<string, unknown>, key = harness.world.keys.write) => {
      const withAccount = method === "GET" || method === "DELETE" ? `${path}${path.includes("?") ? "&" : "?"}account_id=${account()}` : path;
      return transports(harness)[index].request(method, withAccount, { key, body: body && { account_id: account(), ...body } });
    };
    const site = (n: number) => `https://example${index}-${n}.test/product`;

    test("an untouched account reads the defaults", async () => {
      const answer = await call("GET", "/v1/context");
      assert.equal(answer.status, 200);
      const data = answer.body.data;
      assert.equal(data.account_id, account());
      assert.deepEqual(data.profile_description, { text: null, enabled: true });
      assert.deepEqual(data.interests, []);
      assert.equal(data.rules, null);
      assert.deepEqual(data.style_guide, { generated: null, generated_at: null, audience_override: null, vocabulary_override: null });
      assert.deepEqual(data.products, []);
    });

    test("PATCH changes only the fields sent; null clears; arrays replace", async () => {
      await call("PATCH", "/v1/context", {
        profile_description: { text: "Builder of small tools", enabled: false },
        rules: "No hashtags",
        interests: ["AI", "ai", "Design"],
      });
      const answer = await call("PATCH", "/v1/context", { profile_description: { text: "Builds tools" }, voice: { favorite_creators: ["@paulg", "naval"] } });
      assert.equal(answer.status, 200);
      const data = answer.body.data;
      assert.deepEqual(data.profile_description, { text: "Builds tools", enabled: false });
      assert.equal(data.rules, "No hashtags");
      assert.deepEqual(data.interests, ["ai", "Design"]);
      assert.deepEqual(data.voice, { favorite_creators: ["paulg", "naval"], use_own_posts_as_examples: true });
      const cleared = await call("PATCH", "/v1/context", { rules: null, interests: [] });
      assert.equal(cleared.body.data.rules, null);
      assert.deepEqual(cleared.body.data.interests, []);
      assert.equal(cleared.body.data.profile_description.text, "Builds tools");
    });

    test("PUT replaces the settings: fields absent return to their defaults, products stay", async () => {
      await call("PUT", "/v1/context/products", { products: [{ url: site(9), name: "Kept" }] });
      await call("PATCH", "/v1/context", { rules: "Short posts", reply: { include_author_name: false } });
      const answer = await call("PUT", "/v1/context", { interests: ["growth"] });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.rules, null);
      assert.deepEqual(answer.body.data.reply, { custom_instructions: null, include_author_name: true });
      assert.deepEqual(answer.body.data.interests, ["growth"]);
      assert.deepEqual(
        answer.body.data.products.map((p: any) => p.name),
        ["Kept"],
      );
    });

    test("bounds and read-only fields answer 400 invalid_parameter naming the field", async () => {
      for (const [body, field] of [
        [{ profile_description: { text: "x".repeat(501) } }, "profile_description.text"],
        [{ interests: Array.from({ length: 31 }, (_, i) => `topic ${i}`) }, "interests"],
        [{ interests: ["x".repeat(51)] }, "interests[0]"],
        [{ rules: "x".repeat(501) }, "rules"],
        [{ reply: { custom_instructions: "x".repeat(501) } }, "reply.custom_instructions"],
        [{ voice: { favorite_creators: ["a", "b", "c", "d"] } }, "voice.favorite_creators"],
        [{ voice: { favorite_creators: ["not a handle!"] } }, "voice.favorite_creators[0]"],
        [{ style_guide: { audience_override: "x".repeat(601) } }, "style_guide.audience_override"],
        [{ style_guide: { vocabulary_override: "x".repeat(1001) } }, "style_guide.vocabulary_override"],
        [{ style_guide: { generated: "mine" } }, "style_guide"],
      ] as const) {
        const answer = await call("PATCH", "/v1/context", body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.ok(answer.body.error.message.includes(`"${field}`), `${answer.body.error.message} names ${field}`);
      }
    });

    test("products: full replace by url, at most 5, distinct and http(s)", async () => {
      const five = Array.from({ length: 5 }, (_, i) => ({ url: site(i), name: `P${i}` }));
      const replaced = await call("PUT", "/v1/context/products", { products: five });
      assert.equal(replaced.status, 200);
      assert.deepEqual(
        replaced.body.data.map((p: any) => p.name),
        ["P0", "P1", "P2", "P3", "P4"],
      );
      assert.equal(typeof replaced.body.data[0].id, "number");
      for (const products of [[...five, { url: site(5) }], [{ url: site(0) }, { url: site(0) }], [{ url: "ftp://example.test" }], [{ url: "not a url" }]]) {
        const answer = await call("PUT", "/v1/context/products", { products });
        assert.equal(answer.status, 400, JSON.stringify(products));
        assert.equal(answer.body.error.code, "invalid_parameter");
      }
      const capped = await call("PATCH", `/v1/context/products/${encodeURIComponent(site(7))}`, { name: "Sixth" });
      assert.equal(capped.status, 400);
      assert.equal(capped.body.error.code, "invalid_parameter");
      const bare = await call("PUT", "/v1/context/products", { products: [{ url: `example${index}-30.test/product#top`, name: "Bare" }] });
      assert.equal(bare.status, 200, JSON.stringify(bare.body));
      assert.equal(bare.body.data[0].url, `https://example${index}-30.test/product`, "a bare domain means https; the fragment is dropped");
      const emptied = await call("PUT", "/v1/context/products", { products: [] });
      assert.deepEqual(emptied.body.data, []);
    });

    test("a deleted product comes back with its details when its url is added again", async () => {
      const [created] = (await call("PUT", "/v1/context/products", { products: [{ url: site(20), name: "Widget", positioning: "For makers" }] })).body.data;
      const deleted = await call("DELETE", `/v1/context/products/${created.id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, { data: { id: created.id, deleted: true } });
      const again = await call("DELETE", `/v1/context/products/${created.id}`);
      assert.equal(again.status, 404);
      assert.equal(again.body.error.code, "not_found");
      assert.deepEqual((await call("GET", "/v1/context")).body.data.products, []);
      const restored = await call("PATCH", "/v1/context", { products: [{ url: site(20) }] });
      const [product] = restored.body.data.products;
      assert.deepEqual([product.id, product.name, product.positioning], [created.id, "Widget", "For makers"]);
    });

    test("PATCH a product by id changes only the fields sent; by a new url creates it", async () => {
      await call("PUT", "/v1/context/products", { products: [] });
      const created = await call("PATCH", `/v1/context/products/${encodeURIComponent(site(30))}`, { name: "Gadget", features: "Fast" });
      assert.equal(created.status, 200);
      const changed = await call("PATCH", `/v1/context/products/${created.body.data.id}`, { description: "Small", features: null });
      assert.deepEqual([changed.body.data.name, changed.body.data.description, changed.body.data.features], ["Gadget", "Small", null]);
      const missing = await call("PATCH", "/v1/context/products/999999", { name: "x" });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, "not_found");
      const invalid = await call("DELETE", "/v1/context/products/abc");
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.error.code, "invalid_parameter");
    });
  });
});

describe("who may write the context", () => {
  const call = (method: string, path: string, accountId: string, key = harness.world.keys.write) =>
    transports(harness)[1].request(method, method === "GET" ? `${path}?account_id=${accountId}` : path, {
      key,
      body: method === "GET" ? undefined : { account_id: accountId, rules: "Be kind" },
    });

  test("a viewer share may write the context (exempt from writes_main_account_only)", async () => {
    const answer = await call("PATCH", "/v1/context", harness.world.accounts.shared);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.rules, "Be kind");
  });

  test("an editor share answers 403 editor_restricted; reading still works", async () => {
    const answer = await call("PATCH", "/v1/context", harness.world.accounts.editor_shared);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, "editor_restricted");
    const products = await transports(harness)[1].request("PUT", "/v1/context/products", {
      key: harness.world.keys.write,
      body: { account_id: harness.world.accounts.editor_shared, products: [] },
    });
    assert.equal(products.status, 403);
    assert.equal(products.body.error.code, "editor_restricted");
    assert.equal((await call("GET", "/v1/context", harness.world.accounts.editor_shared)).status, 200);
  });

  test("another user's account answers 404 account_not_found, a read key 403 insufficient_scope", async () => {
    const foreign = await call("PATCH", "/v1/context", harness.world.accounts.other_user);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, "account_not_found");
    const readOnly = await call("PATCH", "/v1/context", harness.world.accounts.main, harness.world.keys.read);
    assert.equal(readOnly.status, 403);
    assert.equal(readOnly.body.error.code, "insufficient_scope");
  });
});
