/**
 * Engage with the network unreachable (`THREADLINE_FAULTS=x`; spec: POST /v1/engage/feeds
 * errors `503 upstream_unavailable`, Limits 4 and 6): a list feed's lookup that never reached
 * the network gives its enrichment unit back, a feed read or mentions read gives its feed
 * fetches back, keyword and contact-list feeds are still created (they read nothing live).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { usedToday } from "./support/engage_helpers.ts";

let harness: Harness;

before(async () => {
  harness = await startHarness({ config: { faults: "x" } });
});
after(() => harness.close());

describe("engage with the network down", () => {
  const send = (method: string, path: string, body?: unknown) => transports(harness)[1].request(method, path, { key: harness.world.keys.write, body });

  test("a list feed is 503 upstream_unavailable and costs no enrichment; a keywords feed is still created", async () => {
    const enrichment = await usedToday(harness, "enrichment");
    expectError(await send("POST", "/v1/engage/feeds", { name: "List", type: "x_list", x_list_id: "1500000000000000001" }), 503, "upstream_unavailable");
    assert.equal(await usedToday(harness, "enrichment"), enrichment, "the unit is given back");
    const created = await send("POST", "/v1/engage/feeds", { name: "Words", type: "keywords", keywords: ["AI agents"] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  test("feed posts and mentions are 503 upstream_unavailable and give their feed fetches back", async () => {
    const feeds = (await send("GET", "/v1/engage/feeds")).body.data;
    const feed = feeds.find((row: any) => row.type === "keywords");
    assert.ok(feed);
    const fetches = await usedToday(harness, "feed");
    expectError(await send("GET", `/v1/engage/feeds/${feed.id}/posts?fresh=true`), 503, "upstream_unavailable");
    expectError(await send("GET", "/v1/engage/mentions"), 503, "upstream_unavailable");
    assert.equal(await usedToday(harness, "feed"), fetches, "nothing was read: no fetch counted");
  });
});
