/**
 * The fake X server judges every request by X's own OpenAPI document (a subset of
 * xdevplatform/docs' openapi.json, test/support/fake_x_api/x_openapi_subset.json): a request X's
 * document would reject is recorded and fails the test at `close()`, while the real adapter's
 * requests pass (test/network_x_api.test.ts runs with the check on).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { OPERATIONS } from "./support/fake_x_api/make_x_openapi_subset.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { createXContract, loadXOpenApiSubset } from "./support/fake_x_api/x_contract.ts";
import { manualClock } from "./support/manual_clock.ts";

const ADA_ID = "1600000000000000001";
const ADA_TOKEN = "user-token-ada";

let fake: FakeXServer;

before(async () => {
  fake = await startFakeXServer({ userTokens: { [ADA_TOKEN]: ADA_ID } });
});
after(async () => {
  await fake.close();
});

/** Sends one raw request to the fake and answers the violations it recorded, emptying them. */
async function violationsOf(method: string, path: string, options: { token?: string; body?: string; contentType?: string } = {}): Promise<string[]> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? fake.bearerToken}` };
  if (options.contentType ?? options.body) headers["Content-Type"] = options.contentType ?? "application/json";
  await (await fetch(`${fake.url}${path}`, { method, headers, body: options.body })).arrayBuffer();
  return fake.violations.splice(0).flatMap((violation) => violation.problems);
}

describe("the subset of X's document", () => {
  test("holds every operation the adapter calls, its source and no dangling reference", () => {
    const document = loadXOpenApiSubset();
    const held = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.deepEqual(held.sort(), [...OPERATIONS].sort());
    const source = document.info["x-threadline-subset"];
    assert.equal(source.repository, "https://github.com/xdevplatform/docs");
    assert.match(source.commit, /^[0-9a-f]{40}$/);
    const refs = JSON.stringify(document).match(/"#\/components\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, , kind, name] = JSON.parse(ref).split("/");
      assert.ok(document.components[kind]?.[name], `${ref} resolves`);
    }
  });
});

describe("the fake X server checks requests against X's document", () => {
  test("a max_results above X's maximum is a violation", async () => {
    const problems = await violationsOf("GET", `/2/users/${ADA_ID}/tweets?max_results=500`);
    assert.deepEqual(problems, ["query.max_results must be <= 100"]);
  });

  test("a query parameter X does not list is a violation", async () => {
    const problems = await violationsOf("GET", `/2/users/${ADA_ID}/tweets?max_results=10&colour=blue`);
    assert.deepEqual(problems, ['query must NOT have additional properties "colour"']);
  });

  test("a field X does not offer, a bad path id and a bad time are violations", async () => {
    const problems = await violationsOf("GET", "/2/users/ada/tweets?tweet.fields=created_at,mood&start_time=yesterday");
    assert.equal(problems.length, 3, problems.join("; "));
    assert.ok(problems.some((p) => p.startsWith("path.id ")));
    assert.ok(problems.includes(`query.tweet.fields.1 "mood" is not one of the values X's document allows`));
    assert.ok(problems.includes('query.start_time must match format "date-time"'));
  });

  test("a post body without text, or with a field X does not take, is a violation", async () => {
    // X's CreatePostsRequest lists `text` among its fields but requires none of them itself.
    const unknown = await violationsOf("POST", "/2/tweets", { token: ADA_TOKEN, body: JSON.stringify({ txt: "hello" }) });
    assert.deepEqual(unknown, ['body must NOT have additional properties "txt"']);
    const empty = await violationsOf("POST", "/2/tweets", { token: ADA_TOKEN });
    assert.deepEqual(empty, ["the request body is required"]);
    const retweet = await violationsOf("POST", `/2/users/${ADA_ID}/retweets`, { token: ADA_TOKEN, body: "{}" });
    assert.deepEqual(retweet, ["body must have required property 'tweet_id'"]);
  });

  test("a user-context operation under the app-only token, and an operation X does not have, are violations", async () => {
    assert.deepEqual(await violationsOf("GET", "/2/users/me"), ['authentication "BearerToken" is not one of [OAuth2UserToken, UserToken]']);
    assert.deepEqual(await violationsOf("GET", "/2/tweets/123/replies"), ["X's document has no operation GET /2/tweets/123/replies"]);
  });

  test("close() fails while a violation is recorded, naming the request", async () => {
    const other = await startFakeXServer({ network: fake.network });
    await (await fetch(`${other.url}/2/users/${ADA_ID}/tweets?max_results=500`, { headers: { Authorization: `Bearer ${other.bearerToken}` } })).arrayBuffer();
    await assert.rejects(other.close(), (error: Error) => {
      assert.match(
        error.message,
        /would reject 1 request\(s\):\n {2}GET \/2\/users\/\d+\/tweets\?max_results=500 \(getUsersPosts\): query\.max_results must be <= 100/,
      );
      return true;
    });
  });

  test("the real adapter's requests pass: reads, a post and a delete", async () => {
    const clock = manualClock(new Date().toISOString());
    const x = createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, clock, userToken: ADA_TOKEN, timeoutMs: 5000 });
    const from = fake.requests.length;
    const ada = await x.userByUsername("ada_builds");
    await x.timeline(ada.id, { limit: 30 });
    await x.followers(ada.id, { limit: 150 });
    const posted = await x.publishPost({ authorId: ADA_ID, text: "Contract check", token: "contract-1" });
    await x.deletePost(ADA_ID, posted.id);
    assert.ok(fake.requests.length - from >= 5, "the adapter reached the fake");
    assert.deepEqual(fake.violations, []);
  });

  test("a multipart media append is read as X's AppendMediaUploadRequest", async () => {
    const contract = createXContract();
    const form = new FormData();
    form.set("media", new Blob([new Uint8Array([1, 2, 3])]), "chunk");
    form.set("segment_index", "1000");
    const request = new Request("http://x.test/2/media/upload/123/append", { method: "POST", body: form });
    const problems = await contract.check({
      method: "POST",
      url: new URL(request.url),
      contentType: request.headers.get("content-type") ?? undefined,
      raw: Buffer.from(await request.arrayBuffer()),
      auth: "OAuth2UserToken",
    });
    assert.deepEqual(problems, ["body.segment_index must be <= 999"]);
  });
});
