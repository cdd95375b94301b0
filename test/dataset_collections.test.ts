/**
 * Collections (docs/areas.md "Datasets"; spec rule 8, Limits 7, Constants; supplement: Datasets,
 * collection form): every source, the filters and counts, `201` at once vs `202` walked in
 * the background while GET shows progress, `409 collection_in_progress`, the daily slots
 * (`429 collection_quota_exceeded`, research not counted, the slot given back when nobody
 * matched), enrichment units (`429 rate_limited` on a small plan), the `400`s and `404`s,
 * the purge of expired datasets, a last attempt ending `failed`, and a job killed mid-walk
 * that resumes without duplicating rows (PostgreSQL only). Through both transports.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { childEnv, pollUntil, startNode } from "./support/child_node.ts";
import type { NetworkDemoFixtures } from "../core/network/network_records.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { NetworkUnavailableError } from "../core/network/network_errors.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { enqueueJob, sweepStaleJobs } from "../core/jobs/jobs_queries.ts";
import { insertDataset } from "../core/datasets/datasets_queries.ts";
import { expiryOf, newDatasetId } from "../core/datasets/dataset_access.ts";

let harness: Harness;
let x: NetworkDemoFixtures;

before(async () => {
  harness = await startHarness();
  assert.ok(harness.world.x, "the simulated network has its fixtures");
  x = harness.world.x;
  // The account answers the demo post itself: it must never be a row of its repliers, and
  // `my_replies` has at least this reply.
  await harness.services.network.publishPost({
    authorId: harness.world.accounts.main,
    text: "Thanks for sharing this, agreed on all points",
    replyToId: x.post_id,
  });
});
after(() => harness.close());

const postgresOnly = process.env.DATABASE_URL ? false : "needs PostgreSQL (DATABASE_URL): a killed process cannot share an in-memory PGlite database";

/** Frees the account's daily slots (each case collects afresh; the quota case counts its own). */
async function freeSlots(accountId: string) {
  await harness.services.sql`update datasets set quota_day = null where account_id = ${accountId}`;
}

async function slotsTaken(accountId: string): Promise<number> {
  const [{ used }] = await harness.services.sql<{ used: number }[]>`
    select count(*)::int as used from datasets where account_id = ${accountId} and quota_day is not null`;
  return used;
}

async function storedRows(datasetId: string) {
  return harness.services.sql<any[]>`select * from dataset_rows where dataset_id = ${datasetId} order by position`;
}

async function enrichmentUsedToday(accountId: string): Promise<number> {
  const { requestCounters, clock } = harness.services;
  const check = { key: `rl:${accountId}:enrichment:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
  return (await requestCounters.consume([check], clock.now())).windows[0].used;
}

/** Runs the due `build_dataset` jobs once through `network` (default: the harness's). */
function runDatasetJobs(network: SocialNetwork = harness.services.network) {
  const { sql, clock } = harness.services;
  return runJobsOnce({ sql, runnerId: "collections-test", kinds: ["build_dataset"], handlers: jobHandlers({ sql, clock, network }) });
}

/**
 * Runs the dataset jobs beside the poller, polling `GET /v1/datasets/{id}` every few ms
 * until it is no longer `collecting`; answers every state seen and the last record.
 */
async function pollUntilDone(transport: Transport, id: string, key = harness.world.keys.write) {
  let stop = false;
  const driver = (async () => {
    while (!stop) {
      await runDatasetJobs();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const seen: any[] = [];
  try {
    return {
      record: await pollUntil(
        `dataset ${id} to finish`,
        async () => {
          const answer = await transport.request("GET", `/v1/datasets/${id}`, { key });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          seen.push(answer.body.data);
          return answer.body.data.status === "collecting" ? undefined : answer.body.data;
        },
        { timeoutMs: 60_000, intervalMs: 5 },
      ),
      seen,
    };
  } finally {
    stop = true;
    await driver;
  }
}

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport().request(method, path, { key, body });
  const main = () => harness.world.accounts.main;

  describe(`collections (${name})`, () => {
    test("repliers of a small post answer 201 ready: one row per person with their reply, never the account, 2 enrichment units", async () => {
      await freeSlots(main());
      const before = await enrichmentUsedToday(main());
      const answer = await send("POST", "/v1/datasets", { source: "repliers", target: `https://x.com/nina_designs/status/${x.post_id}?s=20` });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const data = answer.body.data;
      assert.equal(data.status, "ready");
      assert.equal(data.source, "repliers");
      assert.equal(data.has_people, true);
      assert.equal(data.max_rows, 500);
      assert.equal(answer.body.meta.enrichment_units, 2);
      assert.equal((await enrichmentUsedToday(main())) - before, 2);
      const { scanned, matched, filtered_out, duplicates } = data.counts;
      assert.equal(scanned, matched + filtered_out + duplicates);
      assert.equal(data.row_count, matched);
      assert.ok(matched > 0);
      const rows = await storedRows(data.id);
      assert.equal(rows.length, matched);
      assert.equal(new Set(rows.map((row) => row.key)).size, rows.length, "one row per person");
      assert.ok(rows.every((row) => row.key === row.x_user_id && row.post_text && row.post_url?.includes("/status/") && row.handle));
      assert.ok(
        rows.every((row) => row.x_user_id !== main()),
        "never the account itself",
      );
      assert.equal(await slotsTaken(main()), 1);
    });

    test("quoters carry their quote, reposters and list members the person only", async () => {
      await freeSlots(main());
      const quoters = await send("POST", "/v1/datasets", { source: "quoters", target: x.post_id, title: "Quoters" });
      assert.equal(quoters.status, 201, JSON.stringify(quoters.body));
      assert.equal(quoters.body.data.title, "Quoters");
      assert.ok((await storedRows(quoters.body.data.id)).every((row) => row.post_text !== null));

      const reposters = await send("POST", "/v1/datasets", { source: "reposters", target: `https://twitter.com/nina_designs/status/${x.post_id}` });
      assert.equal(reposters.status, 201, JSON.stringify(reposters.body));
      const repostRows = await storedRows(reposters.body.data.id);
      assert.ok(repostRows.length > 0);
      assert.ok(repostRows.every((row) => row.post_id === null && row.x_user_id !== null));

      const members = await send("POST", "/v1/datasets", { source: "list_members", target: `https://x.com/i/lists/${x.public_list_id}`, max_rows: 10 });
      assert.equal(members.status, 201, JSON.stringify(members.body));
      assert.match(members.body.data.title, /^Members of list "/);
      assert.equal(members.body.data.row_count, 10);
      assert.equal(members.body.data.counts.matched, 10);
      assert.match(members.body.data.coverage, /capped at 10/);
      assert.ok((await storedRows(members.body.data.id)).every((row) => row.post_id === null));
    });

    test("filters keep only matching people and count the rest; keywords on reposters are ignored with a note", async () => {
      await freeSlots(main());
      const all = await storedRows((await send("POST", "/v1/datasets", { source: "repliers", target: x.post_id })).body.data.id);
      const word = all[0].post_text.split(/\s+/).find((part: string) => /^[a-z]{5,}$/i.test(part));
      assert.ok(word, "a word to filter on");
      const byKeyword = await send("POST", "/v1/datasets", { source: "repliers", target: x.post_id, filters: { keywords: [word.toUpperCase()] } });
      assert.equal(byKeyword.status, 201, JSON.stringify(byKeyword.body));
      const kept = await storedRows(byKeyword.body.data.id);
      assert.ok(kept.length > 0 && kept.every((row) => row.post_text.toLowerCase().includes(word.toLowerCase())));
      assert.equal(byKeyword.body.data.counts.filtered_out, byKeyword.body.data.counts.scanned - kept.length - byKeyword.body.data.counts.duplicates);
      assert.match(byKeyword.body.data.coverage, /filters applied/);

      const threshold = [...all.map((row) => row.followers_count)].sort((a, b) => a - b)[Math.floor(all.length / 2)];
      const profile = await send("POST", "/v1/datasets", {
        source: "list_members",
        target: x.public_list_id,
        filters: { min_followers: threshold, require_can_dm: true },
      });
      if (profile.status === 201) {
        const rows = await storedRows(profile.body.data.id);
        assert.ok(rows.every((row) => row.followers_count >= threshold && row.can_dm === true));
        assert.ok(profile.body.data.counts.filtered_out > 0);
      } else {
        assert.equal(profile.status, 200, JSON.stringify(profile.body));
      }
      const withSite = await send("POST", "/v1/datasets", {
        source: "reposters",
        target: x.post_id,
        filters: { require_website: true, keywords: ["anything"] },
      });
      assert.equal(withSite.status, 201, JSON.stringify(withSite.body));
      assert.ok((await storedRows(withSite.body.data.id)).every((row) => row.website));
      assert.match(withSite.body.data.note, /filters\.keywords/);

      const bio = all
        .find((row) => row.bio)
        ?.bio.split(/\s+/)
        .find((part: string) => /^[a-z]{5,}$/i.test(part));
      if (bio) {
        const byBio = await send("POST", "/v1/datasets", { source: "repliers", target: x.post_id, filters: { bio_keywords: [bio] } });
        assert.equal(byBio.status, 201, JSON.stringify(byBio.body));
        assert.ok((await storedRows(byBio.body.data.id)).every((row) => row.bio.toLowerCase().includes(bio.toLowerCase())));
      }
    });

    test("a collection matching nobody answers 200 data null with a note, stores nothing and keeps no slot", async () => {
      await freeSlots(main());
      const before = await harness.services.sql<{ n: number }[]>`select count(*)::int as n from datasets where account_id = ${main()}`;
      const answer = await send("POST", "/v1/datasets", { source: "repliers", target: x.post_id, filters: { keywords: ["zqxwv-nowhere"] } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data, null);
      assert.match(answer.body.note, /Nobody matched/);
      const after = await harness.services.sql<{ n: number }[]>`select count(*)::int as n from datasets where account_id = ${main()}`;
      assert.equal(after[0].n, before[0].n);
      assert.equal(await slotsTaken(main()), 0);
    });

    test("a large collection answers 202 collecting with zero rows, refuses a second one with 409, and GET shows it to ready", async () => {
      await freeSlots(main());
      const answer = await send("POST", "/v1/datasets", { source: "repliers", target: x.large_post_id, max_rows: 250 });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      const started = answer.body.data;
      assert.equal(started.status, "collecting");
      assert.equal(started.row_count, 0);
      assert.equal(started.rows_collected, 0);
      assert.ok(started.expected_total > 100);
      assert.equal(answer.body.meta.enrichment_units, 1 + 3, "the estimate plus ceil(250 / 100) pages");
      assert.match(started.coverage, /^Collecting/);

      const second = await send("POST", "/v1/datasets", { source: "quoters", target: x.large_post_id });
      expectError(second, 409, "collection_in_progress");
      assert.equal(second.body.error.dataset_id, started.id);

      const { record, seen } = await pollUntilDone(transport(), started.id);
      assert.equal(record.status, "ready");
      assert.equal(record.row_count, 250);
      assert.equal(record.rows_collected, 250);
      assert.equal(record.counts.matched, 250);
      assert.match(record.coverage, /^250 people who replied to the post \(of about/);
      assert.ok(seen.every((step) => step.status === "ready" || step.rows_collected <= 250));
      const rows = await storedRows(started.id);
      assert.equal(new Set(rows.map((row) => row.key)).size, 250);
    });

    test("a background collection matching nobody ends ready and empty with a note and gives its slot back", async () => {
      await freeSlots(main());
      const answer = await send("POST", "/v1/datasets", { source: "quoters", target: x.large_post_id, filters: { keywords: ["zqxwv-nowhere"] } });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      assert.equal(await slotsTaken(main()), 1);
      const { record } = await pollUntilDone(transport(), answer.body.data.id);
      assert.equal(record.status, "ready");
      assert.equal(record.row_count, 0);
      assert.match(record.note, /Nobody matched/);
      assert.equal(await slotsTaken(main()), 0);
    });

    test("my_posts and my_replies are synchronous, free, posts not people, and ignore profile filters with a note", async () => {
      await freeSlots(main());
      const before = await enrichmentUsedToday(main());
      const posts = await send("POST", "/v1/datasets", { source: "my_posts", max_rows: 20, filters: { since_days: 365, sort: "likes", min_followers: 10 } });
      assert.equal(posts.status, 201, JSON.stringify(posts.body));
      assert.equal(posts.body.data.has_people, false);
      assert.equal(posts.body.meta.enrichment_units, 0);
      assert.equal(await enrichmentUsedToday(main()), before);
      assert.match(posts.body.data.note, /filters\.min_followers/);
      const rows = await storedRows(posts.body.data.id);
      assert.ok(rows.length > 0 && rows.length <= 20);
      assert.ok(rows.every((row) => row.x_user_id === null && row.key === row.post_id));
      for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].likes >= rows[i].likes, "sorted by likes");

      const replies = await send("POST", "/v1/datasets", { source: "my_replies", filters: { since_days: 7, keywords: ["AGREED"] } });
      assert.equal(replies.status, 201, JSON.stringify(replies.body));
      assert.equal(replies.body.data.source, "my_replies");
      assert.match(replies.body.data.title, /^My replies \(last 7 days\)$/);
      const replyRows = await storedRows(replies.body.data.id);
      assert.ok(replyRows.length >= 1 && replyRows.every((row) => row.post_text.toLowerCase().includes("agreed")));
    });

    test("bad bodies answer 400 invalid_parameter naming the field", async () => {
      const cases: [unknown, string][] = [
        [{ source: "repliers", target: "https://example.com/a/status/1" }, "target"],
        [{ source: "repliers", target: "not a post" }, "target"],
        [{ source: "list_members", target: `https://x.com/someone/status/${x.post_id}` }, "target"],
        [{ source: "repliers" }, "target"],
        [{ source: "my_posts", target: x.post_id }, "target"],
        [{ source: "repliers", target: x.post_id, max_rows: 0 }, "max_rows"],
        [{ source: "repliers", target: x.post_id, max_rows: 1001 }, "max_rows"],
        [{ source: "followers", target: x.post_id }, "source"],
        [{ source: "repliers", target: x.post_id, handles: ["a"] }, "handles"],
        [{ source: "reposters", target: x.post_id, focus: "growth" }, "focus"],
        [{ source: "quoters", target: x.post_id, dataset_id: "ds_1" }, "dataset_id"],
      ];
      for (const [body, field] of cases) {
        const answer = await send("POST", "/v1/datasets", body);
        expectError(answer, 400, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(field), JSON.stringify(answer.body));
      }
      expectError(await send("GET", "/v1/datasets/bad!id"), 400, "invalid_parameter");
      expectError(await send("GET", `/v1/datasets/${"a".repeat(65)}`), 400, "invalid_parameter");
    });

    test("a missing post is 404 post_not_found; a private or unknown list 404 x_list_not_found", async () => {
      expectError(await send("POST", "/v1/datasets", { source: "repliers", target: "1" }), 404, "post_not_found");
      expectError(await send("POST", "/v1/datasets", { source: "list_members", target: x.private_list_id }), 404, "x_list_not_found");
      expectError(await send("POST", "/v1/datasets", { source: "list_members", target: "9" }), 404, "x_list_not_found");
    });

    test("another user's dataset and an expired one are 404 not_found", async () => {
      await freeSlots(main());
      const made = await send("POST", "/v1/datasets", { source: "reposters", target: x.post_id });
      assert.equal(made.status, 201);
      expectError(await send("GET", `/v1/datasets/${made.body.data.id}`, undefined, harness.world.keys.other_user), 404, "not_found");
      await harness.services.sql`update datasets set expires_at = ${new Date(harness.services.clock.now() - 1000)} where id = ${made.body.data.id}`;
      expectError(await send("GET", `/v1/datasets/${made.body.data.id}`), 404, "not_found");
      const listed = await send("GET", "/v1/datasets?limit=100");
      assert.ok(!listed.body.data.some((item: any) => item.id === made.body.data.id));
    });
  });
});

describe("collection allowances", () => {
  const send = (body: unknown, key = harness.world.keys.write) => transports(harness)[1].request("POST", "/v1/datasets", { key, body });

  test("10 collections per account per UTC day, then 429 collection_quota_exceeded with limit and Retry-After; research takes no slot", async () => {
    const linked = harness.world.accounts.linked;
    await freeSlots(linked);
    const { sql, clock } = harness.services;
    const [{ owner }] = await sql<{ owner: number }[]>`select owner_id::int as owner from datasets limit 1`;
    // A research run stores no quota_day (spec Limits 7: "research does not" count).
    const now = new Date(clock.now());
    await insertDataset(sql, {
      id: newDatasetId(),
      owner_id: owner,
      account_id: linked,
      source: "research",
      title: "Research",
      status: "ready",
      params: { max_rows: 10 },
      created_at: now,
      expires_at: expiryOf(now.getTime()),
    });
    for (let i = 0; i < 10; i++) {
      const answer = await send({ source: "reposters", target: x.post_id, account_id: linked });
      assert.equal(answer.status, 201, `collection ${i + 1}: ${JSON.stringify(answer.body)}`);
    }
    const refused = await send({ source: "reposters", target: x.post_id, account_id: linked });
    expectError(refused, 429, "collection_quota_exceeded");
    assert.equal(refused.body.error.limit, 10);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.ok(refused.body.error.retry_after > 0);
    // The main account's slots are its own.
    await freeSlots(harness.world.accounts.main);
    assert.equal((await send({ source: "reposters", target: x.post_id })).status, 201);
  });

  test("a collection over the plan's enrichment bucket answers 429 rate_limited and stores nothing", async () => {
    const bo = harness.world.accounts.throttled;
    const answer = await send({ source: "repliers", target: x.large_post_id }, harness.world.keys.throttled);
    expectError(answer, 429, "rate_limited");
    assert.equal(answer.body.error.bucket, "enrichment");
    assert.ok(Number(answer.headers.get("retry-after")) > 0);
    assert.equal(await slotsTaken(bo), 0);
    const [{ n }] = await harness.services.sql<{ n: number }[]>`select count(*)::int as n from datasets where account_id = ${bo}`;
    assert.equal(n, 0);
  });

  test("a job on its last attempt ends the dataset failed with an error sentence and gives the slot back", async () => {
    const main = harness.world.accounts.main;
    await freeSlots(main);
    const answer = await send({ source: "reposters", target: x.large_post_id });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.data.id;
    await harness.services.sql`update jobs set max_attempts = 1 where kind = 'build_dataset' and payload->>'datasetId' = ${id}`;
    const failing: SocialNetwork = {
      ...harness.services.network,
      reposters: async () => {
        throw new NetworkUnavailableError();
      },
    };
    const run = await runDatasetJobs(failing);
    assert.equal(run.claimed, 1);
    const get = await transports(harness)[0].request("GET", `/v1/datasets/${id}`, { key: harness.world.keys.write });
    assert.equal(get.body.data.status, "failed");
    assert.match(get.body.data.error, /^The collection failed: the network kept failing/);
    assert.equal(await slotsTaken(main), 0);
  });

  test("an unsizable collection (a counter of 0) is walked in the background and, matching nobody, ends ready with its slot back", async () => {
    const main = harness.world.accounts.main;
    await freeSlots(main);
    const fresh = await harness.services.network.publishPost({ authorId: harness.world.accounts.linked, text: "A brand new post nobody answered yet" });
    const answer = await send({ source: "repliers", target: fresh.id });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal(answer.body.data.expected_total, null);
    assert.equal(answer.body.meta.enrichment_units, 2);
    const { record } = await pollUntilDone(transports(harness)[0], answer.body.data.id);
    assert.equal(record.status, "ready");
    assert.equal(record.row_count, 0);
    assert.equal(await slotsTaken(main), 0);
  });

  test("a walk that fails mid-way shows its progress on GET and its retry resumes from the saved cursor", async () => {
    const main = harness.world.accounts.main;
    await freeSlots(main);
    const answer = await send({ source: "repliers", target: x.large_post_id, max_rows: 450 });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.data.id;
    const { network, sql } = harness.services;
    let calls = 0;
    const flaky: SocialNetwork = {
      ...network,
      replies: (postId, options) => {
        calls += 1;
        if (calls === 3) throw new NetworkUnavailableError();
        return network.replies(postId, options);
      },
    };
    assert.equal((await runDatasetJobs(flaky)).retried, 1);
    const get = await transports(harness)[1].request("GET", `/v1/datasets/${id}`, { key: harness.world.keys.write });
    const progress = get.body.data;
    assert.equal(progress.status, "collecting");
    assert.equal(progress.row_count, 200);
    assert.equal(progress.rows_collected, 200);
    assert.equal(progress.expected_total, 891);
    assert.match(progress.coverage, /^Collecting: 200 of about 891 people who replied to the post so far\.$/);

    await sql`update jobs set run_at = now() where kind = 'build_dataset' and payload->>'datasetId' = ${id}`;
    const cursors: (string | undefined)[] = [];
    const observed: SocialNetwork = {
      ...network,
      replies: (postId, options) => {
        cursors.push(options?.cursor);
        return network.replies(postId, options);
      },
    };
    assert.equal((await runDatasetJobs(observed)).completed, 1);
    const [saved] = await sql<{ status: string; counts: any }[]>`select status, counts from datasets where id = ${id}`;
    assert.equal(saved.status, "ready");
    assert.equal(cursors.length, 3, "pages 3 to 5 only");
    assert.ok(cursors[0], "not from the start");
    const rows = await storedRows(id);
    assert.equal(rows.length, 450);
    assert.equal(new Set(rows.map((row) => row.key)).size, 450);
    assert.equal(saved.counts.matched, 450);
  });

  test("the purge job deletes expired datasets with their rows and keeps the rest", async () => {
    const main = harness.world.accounts.main;
    await freeSlots(main);
    const send0 = (body: unknown) => transports(harness)[0].request("POST", "/v1/datasets", { key: harness.world.keys.write, body });
    const expired = (await send0({ source: "repliers", target: x.post_id })).body.data.id;
    const kept = (await send0({ source: "reposters", target: x.post_id })).body.data.id;
    const { sql, clock, network } = harness.services;
    await sql`update datasets set expires_at = ${new Date(clock.now() - 1000)} where id = ${expired}`;
    await enqueueJob(sql, { kind: "purge_expired_datasets", payload: {} });
    const run = await runJobsOnce({ sql, runnerId: "purge-test", kinds: ["purge_expired_datasets"], handlers: jobHandlers({ sql, clock, network }) });
    assert.deepEqual([run.claimed, run.completed], [1, 1]);
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from datasets where id = ${expired}`;
    assert.equal(n, 0);
    assert.equal((await storedRows(expired)).length, 0, "its rows went with it");
    assert.ok((await storedRows(kept)).length > 0);
    const [{ expiredLeft }] = await sql<
      { expiredLeft: number }[]
    >`select count(*)::int as "expiredLeft" from datasets where expires_at <= ${new Date(clock.now())}`;
    assert.equal(expiredLeft, 0);
  });

  test("a collection job killed mid-walk resumes from its saved cursor without duplicating rows", { skip: postgresOnly }, async () => {
    const main = harness.world.accounts.main;
    await freeSlots(main);
    const { sql } = harness.services;
    const answer = await send({ source: "repliers", target: x.large_post_id, max_rows: 800 });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.data.id;
    const child = startNode(
      ["--import", "tsx", "test/support/collection_crash_process.ts", "--url", harness.database.url!, "--crash-at-page", "4", "--lease", "2"],
      {
        env: childEnv(),
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The collection process did not die within 60 s\nstdout: ${child.stdout}\nstderr: ${child.stderr}`)), 60_000);
    });
    const exit = await Promise.race([child.exited, late]).finally(() => clearTimeout(timer));
    assert.equal(exit.signal, "SIGKILL", `stdout: ${child.stdout}\nstderr: ${child.stderr}`);
    // Three pages were committed with the cursor of the fourth, which the process died reading.
    const [saved] = await sql<any[]>`select rows_collected, cursor, status from datasets where id = ${id}`;
    assert.equal(saved.status, "collecting");
    assert.equal(saved.cursor.counts.scanned, 300);
    assert.equal(saved.rows_collected, saved.cursor.counts.matched);
    assert.ok(saved.cursor.next);

    await pollUntil(
      "the dead worker's job to return to the queue",
      async () => {
        await sweepStaleJobs(sql);
        const [job] = await sql<{ status: string }[]>`select status from jobs where kind = 'build_dataset' and payload->>'datasetId' = ${id}`;
        return job.status === "queued" ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const cursors: (string | undefined)[] = [];
    const observed: SocialNetwork = {
      ...harness.services.network,
      replies: (postId, options) => {
        cursors.push(options?.cursor);
        return harness.services.network.replies(postId, options);
      },
    };
    assert.equal((await runDatasetJobs(observed)).completed, 1);
    assert.equal(cursors[0], saved.cursor.next, "resumed from the saved cursor");
    const rows = await storedRows(id);
    assert.equal(rows.length, 800);
    assert.equal(new Set(rows.map((row) => row.key)).size, 800, "no person twice");
    const [done] = await sql<any[]>`select status, counts from datasets where id = ${id}`;
    assert.equal(done.status, "ready");
    assert.equal(done.counts.matched, 800);
    assert.equal(3 + cursors.length, Math.ceil(done.counts.scanned / 100), "only the pages not yet committed were read");
  });
});
