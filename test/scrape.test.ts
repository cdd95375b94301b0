/** Product scrape and the page reader (supplement section 5; spec Errors: url_not_allowed). */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { createHttpPageReader } from "../adapters/pages/http_page_reader.ts";
import { createGuardedOutbound } from "../adapters/outbound/guarded_get.ts";
import { UrlNotAllowedError } from "../core/outbound/outbound.ts";
import { PageReadError } from "../core/ports/page_reader.ts";

let site: Server;
let siteUrl = "";
before(async () => {
  site = createServer((request, response) => {
    const hops = /^\/hop\/(\d+)$/.exec(request.url ?? "");
    if (hops) {
      const left = Number(hops[1]);
      response.writeHead(302, { Location: left > 0 ? `/hop/${left - 1}` : "/product" }).end();
    } else if (request.url === "/product") {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(
        `<html><head><title>Widget &amp; Co</title><meta name="description" content="Widgets for makers"><script>var x = "<h1>no</h1>";</script></head>
         <body><h1>Widget</h1><ul><li>Fast setup</li><li>Works offline</li></ul><p>Plenty of text.</p></body></html>`,
      );
    } else if (request.url === "/json") {
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => site.close(() => resolve())));

describe("the HTTP page reader", () => {
  const reader = createHttpPageReader(createGuardedOutbound({ allowHosts: "127.0.0.1", timeoutMs: 2_000 }));

  test("reads title, description and highlights, and ignores scripts", async () => {
    const page = await reader.read(`${siteUrl}/product`);
    assert.equal(page.title, "Widget & Co");
    assert.equal(page.description, "Widgets for makers");
    assert.deepEqual(page.highlights, ["Widget", "Fast setup", "Works offline"]);
    assert.doesNotMatch(page.text, /var x/);
  });

  test("follows up to 3 redirects, and refuses a fourth, non-HTML and errors", async () => {
    assert.equal((await reader.read(`${siteUrl}/hop/2`)).title, "Widget & Co");
    await assert.rejects(reader.read(`${siteUrl}/hop/3`), PageReadError);
    await assert.rejects(reader.read(`${siteUrl}/json`), PageReadError);
    await assert.rejects(reader.read(`${siteUrl}/missing`), PageReadError);
  });

  test("reads through the outbound guard: a loopback page the operator did not allow is refused (the guard's cases: outbound.test.ts)", async () => {
    const guarded = createHttpPageReader(createGuardedOutbound());
    await assert.rejects(guarded.read(`${siteUrl}/product`), UrlNotAllowedError);
    await assert.rejects(guarded.read(`${siteUrl.replace("http:", "https:")}/product`), UrlNotAllowedError);
  });
});

describe("POST /v1/context/products/{id}/scrape", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { outboundAllowHosts: "127.0.0.1" } });
  });
  after(() => harness.close());
  const post = (path: string, body: Record<string, unknown> = {}) => transports(harness)[1].request("POST", path, { key: harness.world.keys.write, body });

  test("re-reads the product page and stores its details, keeping the name set by hand", async () => {
    const [id] = harness.world.products;
    const answer = await post(`/v1/context/products/${id}/scrape`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.name, "Threadline Scheduler");
    assert.ok(answer.body.data.scraped_at);
    assert.match(answer.body.data.description, /Threadline/);
    assert.ok(answer.body.data.features.length > 0);
  });

  test("a page that cannot be read answers 422 scrape_failed; an unknown product 404 not_found", async () => {
    const created = await transports(harness)[0].request("PATCH", `/v1/context/products/${encodeURIComponent("https://gone.invalid/widget")}`, {
      key: harness.world.keys.write,
      body: { name: "Gone" },
    });
    const failed = await post(`/v1/context/products/${created.body.data.id}/scrape`);
    assert.equal(failed.status, 422);
    assert.equal(failed.body.error.code, "scrape_failed");
    const missing = await post("/v1/context/products/999999/scrape");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not_found");
  });

  test("an http, private or metadata-address product URL answers 400 url_not_allowed", async () => {
    for (const url of ["http://shop.example.com/widget", "https://10.0.0.1/widget", "https://169.254.169.254/latest/meta-data"]) {
      const created = await transports(harness)[0].request("PATCH", `/v1/context/products/${encodeURIComponent(url)}`, {
        key: harness.world.keys.write,
        body: { name: "Unsafe" },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const refused = await post(`/v1/context/products/${created.body.data.id}/scrape`);
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body.error.code, "url_not_allowed", url);
      const removed = await transports(harness)[0].request("DELETE", `/v1/context/products/${created.body.data.id}`, { key: harness.world.keys.write });
      assert.ok(removed.status < 300, JSON.stringify(removed.body));
    }
  });

  test("a real page is read over HTTP", async () => {
    const created = await transports(harness)[0].request("PATCH", `/v1/context/products/${encodeURIComponent(`${siteUrl}/product`)}`, {
      key: harness.world.keys.write,
      body: {},
    });
    const answer = await post(`/v1/context/products/${created.body.data.id}/scrape`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.name, "Widget & Co");
    assert.equal(answer.body.data.description, "Widgets for makers");
  });

  test("20 page reads a day, then 429 rate_limited naming page_reads", async () => {
    const [id] = harness.world.products;
    let status = 200;
    let reads = 0;
    while (status === 200 && reads < 30) {
      status = (await post(`/v1/context/products/${id}/scrape`)).status;
      if (status === 200) reads += 1;
    }
    const refused = await post(`/v1/context/products/${id}/scrape`);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.equal(refused.body.error.bucket, "page_reads");
    assert.ok(reads >= 1 && reads <= 20, `${reads} reads before the limit (earlier cases spent the rest)`);
  });

  test("an editor share answers 403 editor_restricted", async () => {
    const answer = await post(`/v1/context/products/${harness.world.products[0]}/scrape`, { account_id: harness.world.accounts.editor_shared });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error.code, "editor_restricted");
  });
});
