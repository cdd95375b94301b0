/**
 * Articles (spec: Article, States (Article), Articles, Errors, Constants; supplement:
 * Articles, C5, C10, 1.2, 1.6): every transition and error code over both transports, the
 * post-quota ledger after each transition, a publication whose answer timed out (reconciled
 * by token: a retry publishes once), and the scheduled-article job through the job runner.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { NetworkTimeoutError, NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { withNetwork } from "./support/with_network.ts";
import { ensureDemoArticles } from "../core/demo/demo_articles.ts";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const JOB_KIND = "publish_scheduled_article";
const minutesAhead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** The net quota units an article holds, and its ledger entries in order. */
async function ledger(id: string): Promise<{ balance: number; entries: string[] }> {
  const rows = await harness.services.sql<{ delta: number; reason: string }[]>`
    select delta, reason from post_quota_ledger where subject = ${`article:${id}`} order by id`;
  return { balance: rows.reduce((sum, row) => sum + row.delta, 0), entries: rows.map((row) => `${row.delta > 0 ? "+" : "-"}${row.reason}`) };
}

/** The articles the simulated network holds for `token` (one per publication). */
async function onNetwork(token: string): Promise<{ status: string; post_id: string | null }[]> {
  return harness.services.sql`select status, post_id from network_articles where client_token = ${token}`;
}

async function storedToken(id: string): Promise<string> {
  const [row] = await harness.services.sql<{ publish_token: string }[]>`select publish_token from articles where id = ${id}`;
  return row.publish_token;
}

/**
 * Moves the network's article counts of earlier cases to an earlier day, so each case
 * starts below X's 10 drafts and 5 publishes a day.
 */
async function freshNetworkDay(): Promise<void> {
  await harness.services.sql`
    update network_articles set created_at = created_at - interval '2 days', published_at = published_at - interval '2 days'`;
}

/**
 * The network, delegating to `base`, whose first article publish lands and then times out
 * (the answer is lost): a fake implementing the port, not a module mock.
 */
function lossyOnce(base: SocialNetwork): { network: SocialNetwork; calls: { publishArticle: number } } {
  const calls = { publishArticle: 0 };
  const network: SocialNetwork = {
    ...base,
    async publishArticle(input) {
      calls.publishArticle++;
      const published = await base.publishArticle(input);
      if (calls.publishArticle === 1) throw new NetworkTimeoutError("X did not answer within 30 s");
      return published;
    },
  };
  return { network, calls };
}
describeMatrix(({ index, name }) => {
  describe(`articles over ${name}`, () => {
    const call = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers: Record<string, string> = {}) =>
      transports(harness)[index].request(method, path, { key, body, headers });
    const unique = (label: string) => `${label} ${index} ${Math.random().toString(36).slice(2, 8)}`;
    const create = async (fields: Record<string, unknown> = {}, key?: string) => {
      const answer = await call("POST", "/v1/articles", { title: unique("Article"), content_markdown: "A body worth reading.", ...fields }, key);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data;
    };

    test("create saves a draft with the normalised body and its warnings", async () => {
      const answer = await call("POST", "/v1/articles", { title: "  Launch notes  ", content_markdown: "#### Setup\n\nRun `npm i`.\n\n---\n\nDone." });
      assert.equal(answer.status, 201);
      const article = answer.body.data;
      assert.equal(typeof article.id, "string");
      assert.equal(article.title, "Launch notes");
      assert.equal(article.status, "draft");
      assert.equal(article.account_id, harness.world.accounts.main);
      assert.equal(article.content_markdown, "### Setup\n\nRun npm i.\n\nDone.");
      assert.equal(article.warnings.length, 3);
      assert.deepEqual([article.cover, article.scheduled_for, article.published_at, article.x_post_id, article.url], [null, null, null, null, null]);
      const read = await call("GET", `/v1/articles/${article.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.data, { ...article, cover_generation: null }, "the one-article read adds the latest cover generation (none yet)");
      const empty = await call("POST", "/v1/articles", { title: "Only a title" });
      assert.equal(empty.status, 201);
      assert.equal(empty.body.data.content_markdown, "");
      assert.deepEqual(empty.body.data.warnings, []);
    });

    test("create bounds answer 400 invalid_parameter naming the field", async () => {
      const cases: [unknown, string][] = [
        [{}, "title"],
        [{ title: "" }, "title"],
        [{ title: "   " }, "title"],
        [{ title: "t".repeat(301) }, "title"],
        [{ title: "ok", content_markdown: "x".repeat(100_001) }, "content_markdown"],
        [{ title: "ok", content_markdown: "[home](javascript:alert(1))" }, "content_markdown"],
        [{ title: "ok", content_markdown: "![pic](/local/pic.png)" }, "content_markdown"],
        [{ title: "ok", account_id: "abc" }, "account_id"],
      ];
      for (const [body, field] of cases) {
        const answer = await call("POST", "/v1/articles", body);
        expectError(answer, 400, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(field), JSON.stringify(body).slice(0, 80));
      }
      assert.equal((await call("POST", "/v1/articles", { title: "t".repeat(300) })).status, 201);
    });

    test("create accepts an Idempotency-Key and replays the first answer", async () => {
      const key = unique("create-key").replace(/ /g, "-");
      const body = { title: unique("Idempotent") };
      const first = await call("POST", "/v1/articles", body, undefined, { "Idempotency-Key": key });
      assert.equal(first.status, 201);
      const again = await call("POST", "/v1/articles", body, undefined, { "Idempotency-Key": key });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(again.body.data, first.body.data);
      expectError(await call("POST", "/v1/articles", { title: "different" }, undefined, { "Idempotency-Key": key }), 409, "idempotency_key_reuse");
    });

    test("writes need the write scope and an account the key may write", async () => {
      expectError(await call("POST", "/v1/articles", { title: "read only" }, harness.world.keys.read), 403, "insufficient_scope");
      expectError(await call("POST", "/v1/articles", { title: "shared", account_id: harness.world.accounts.shared }), 403, "writes_main_account_only");
      expectError(await call("POST", "/v1/articles", { title: "unknown", account_id: "42" }), 404, "account_not_found");
    });

    test("id-addressed calls: a malformed id is 400, another user's article is 404 not_found", async () => {
      const article = await create();
      expectError(await call("GET", "/v1/articles/abc"), 400, "invalid_parameter");
      expectError(await call("GET", "/v1/articles/999999999"), 404, "not_found");
      for (const [method, path, body] of [
        ["GET", `/v1/articles/${article.id}`, undefined],
        ["PATCH", `/v1/articles/${article.id}`, { title: "mine now" }],
        ["DELETE", `/v1/articles/${article.id}`, undefined],
        ["POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(60) }],
        ["POST", `/v1/articles/${article.id}/unschedule`, {}],
        ["POST", `/v1/articles/${article.id}/publish`, {}],
      ] as const) {
        expectError(await call(method, path, body, harness.world.keys.other_user), 404, "not_found");
      }
      // `account_id` narrows the search: the article is not on the linked account.
      expectError(await call("GET", `/v1/articles/${article.id}?account_id=${harness.world.accounts.linked}`), 404, "not_found");
    });

    test("the list filters by status (failed: drafts whose publication failed), newest update first, paginated", async () => {
      const account = harness.world.accounts.linked;
      const drafts = [await create({ account_id: account }), await create({ account_id: account })];
      const scheduled = await create({ account_id: account });
      assert.equal((await call("POST", `/v1/articles/${scheduled.id}/schedule`, { scheduled_for: minutesAhead(90) })).status, 200);
      // The linked account has no premium tier: its publication fails and leaves a failed draft.
      const failed = await create({ account_id: account });
      expectError(await call("POST", `/v1/articles/${failed.id}/publish`, {}), 403, "x_premium_required");

      const all = await call("GET", `/v1/articles?account_id=${account}&limit=100`);
      assert.equal(all.status, 200);
      const ids = all.body.data.map((item: any) => item.id);
      assert.deepEqual(ids.slice(0, 4), [failed.id, scheduled.id, drafts[1].id, drafts[0].id]);
      assert.equal(all.body.pagination.total, all.body.data.length);
      // Only this case's articles: the other transport's run wrote to the same account.
      const mine = new Set([...drafts, scheduled, failed].map((item) => item.id));
      const filtered = async (status: string) =>
        (await call("GET", `/v1/articles?account_id=${account}&status=${status}&limit=100`)).body.data
          .map((item: any) => item.id)
          .filter((id: string) => mine.has(id));
      assert.deepEqual(await filtered("scheduled"), [scheduled.id]);
      assert.deepEqual(await filtered("failed"), [failed.id]);
      assert.deepEqual(await filtered("draft"), [failed.id, drafts[1].id, drafts[0].id]);
      assert.deepEqual(await filtered("draft,scheduled"), [failed.id, scheduled.id, drafts[1].id, drafts[0].id]);
      assert.deepEqual(await filtered("publishing,published"), []);
      const failedRead = (await call("GET", `/v1/articles/${failed.id}`)).body.data;
      assert.match(failedRead.last_error, /premium/i);
      const page = await call("GET", `/v1/articles?account_id=${account}&limit=1&page=2`);
      assert.deepEqual(page.body.pagination, { page: 2, limit: 1, has_more: true, total: all.body.pagination.total });
      assert.equal(page.body.data[0].id, scheduled.id);
      expectError(await call("GET", "/v1/articles?status=sent"), 400, "invalid_parameter");
      expectError(await call("GET", "/v1/articles?limit=101"), 400, "invalid_parameter");
      expectError(await call("GET", "/v1/articles?page=0"), 400, "invalid_parameter");
    });

    test("PATCH changes only the fields sent; cover_url sets and null clears the cover", async () => {
      const article = await create({ content_markdown: "First body." });
      const retitled = await call("PATCH", `/v1/articles/${article.id}`, { title: "New title" });
      assert.equal(retitled.status, 200);
      assert.equal(retitled.body.data.title, "New title");
      assert.equal(retitled.body.data.content_markdown, "First body.");
      const rebodied = await call("PATCH", `/v1/articles/${article.id}`, {
        content_markdown: "| a | b |\n|---|---|\n| 1 | 2 |",
        cover_url: "https://images.example/cover.png",
      });
      assert.equal(rebodied.body.data.title, "New title");
      assert.equal(rebodied.body.data.content_markdown, "a · b\\\n1 · 2");
      assert.equal(rebodied.body.data.warnings.length, 1);
      assert.deepEqual(rebodied.body.data.cover, { url: "https://images.example/cover.png" });
      const cleared = await call("PATCH", `/v1/articles/${article.id}`, { cover_url: null, content_markdown: "Clean." });
      assert.equal(cleared.body.data.cover, null);
      assert.deepEqual(cleared.body.data.warnings, []);
      expectError(await call("PATCH", `/v1/articles/${article.id}`, { cover_url: "ftp://images.example/x.png" }), 400, "invalid_parameter");
      expectError(await call("PATCH", `/v1/articles/${article.id}`, { title: "" }), 400, "invalid_parameter");
    });

    test("schedule: more than 2 minutes ahead, one quota unit, rescheduling keeps it", async () => {
      const article = await create();
      for (const scheduled_for of [
        minutesAhead(1),
        new Date(Date.now() + 120_000).toISOString(),
        minutesAhead(-5),
        "2030-01-01T09:00:00",
        minutesAhead(19 * 31 * 24 * 60),
      ]) {
        const answer = await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for });
        expectError(answer, 400, "invalid_parameter");
        assert.match(answer.body.error.message, /scheduled_for/);
      }
      assert.equal((await ledger(article.id)).balance, 0);
      const first = minutesAhead(3);
      const scheduled = await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: first });
      assert.equal(scheduled.status, 200);
      assert.equal(scheduled.body.data.status, "scheduled");
      assert.equal(scheduled.body.data.scheduled_for, first);
      assert.deepEqual(await ledger(article.id), { balance: 1, entries: ["+article scheduled"] });
      const later = minutesAhead(600);
      const moved = await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: later });
      assert.equal(moved.status, 200);
      assert.equal(moved.body.data.scheduled_for, later);
      assert.deepEqual(await ledger(article.id), { balance: 1, entries: ["+article scheduled"] });
      const jobs = await harness.services.sql<{ run_at: Date; version: number }[]>`
        select run_at, (payload->>'version')::int as version from jobs where kind = ${JOB_KIND} and (payload->>'articleId') = ${article.id} order by id`;
      assert.deepEqual(
        jobs.map((job) => job.run_at.toISOString()),
        [first, later],
      );
      assert.equal(jobs[1].version, jobs[0].version + 1);
    });

    test("schedule errors: empty body 400, onboarding_required, post_quota_exceeded, upstream_unavailable", async () => {
      const empty = await create({ content_markdown: "" });
      expectError(await call("POST", `/v1/articles/${empty.id}/schedule`, { scheduled_for: minutesAhead(10) }), 400, "invalid_parameter");
      const olu = await create({}, harness.world.keys.not_onboarded);
      expectError(
        await call("POST", `/v1/articles/${olu.id}/schedule`, { scheduled_for: minutesAhead(10) }, harness.world.keys.not_onboarded),
        403,
        "onboarding_required",
      );
      const pia = await create({}, harness.world.keys.no_post_quota);
      expectError(
        await call("POST", `/v1/articles/${pia.id}/schedule`, { scheduled_for: minutesAhead(10) }, harness.world.keys.no_post_quota),
        403,
        "post_quota_exceeded",
      );
      expectError(await call("POST", `/v1/articles/${pia.id}/publish`, {}, harness.world.keys.no_post_quota), 403, "post_quota_exceeded");
      assert.deepEqual(await ledger(pia.id), { balance: 0, entries: [] });
      const article = await create();
      const faults = harness.services.faults;
      harness.services.faults = new Set(["scheduler"]);
      try {
        expectError(await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(10) }), 503, "upstream_unavailable");
        expectError(await call("POST", `/v1/articles/${article.id}/unschedule`, {}), 503, "upstream_unavailable");
      } finally {
        harness.services.faults = faults;
      }
      assert.equal((await call("GET", `/v1/articles/${article.id}`)).body.data.status, "draft");
    });

    test("unschedule returns a scheduled article to draft and refunds exactly its unit; otherwise 409 article_not_scheduled", async () => {
      const article = await create();
      expectError(await call("POST", `/v1/articles/${article.id}/unschedule`, {}), 409, "article_not_scheduled");
      assert.equal((await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(30) })).status, 200);
      const back = await call("POST", `/v1/articles/${article.id}/unschedule`, {});
      assert.equal(back.status, 200);
      assert.equal(back.body.data.status, "draft");
      assert.equal(back.body.data.scheduled_for, null);
      assert.deepEqual(await ledger(article.id), { balance: 0, entries: ["+article scheduled", "-article unscheduled"] });
      expectError(await call("POST", `/v1/articles/${article.id}/unschedule`, {}), 409, "article_not_scheduled");
      // A second schedule after the refund takes a unit again.
      assert.equal((await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(30) })).status, 200);
      assert.equal((await ledger(article.id)).balance, 1);
    });

    test("delete answers { id, deleted: true }; a scheduled article's unit is refunded; a second delete is 404", async () => {
      const draft = await create();
      const gone = await call("DELETE", `/v1/articles/${draft.id}`);
      assert.equal(gone.status, 200);
      assert.deepEqual(gone.body, { data: { id: draft.id, deleted: true } });
      expectError(await call("DELETE", `/v1/articles/${draft.id}`), 404, "not_found");
      expectError(await call("GET", `/v1/articles/${draft.id}`), 404, "not_found");
      const scheduled = await create();
      await call("POST", `/v1/articles/${scheduled.id}/schedule`, { scheduled_for: minutesAhead(45) });
      assert.equal((await call("DELETE", `/v1/articles/${scheduled.id}`)).status, 200);
      assert.deepEqual(await ledger(scheduled.id), { balance: 0, entries: ["+article scheduled", "-article deleted"] });
    });

    test("publish: published with post_id, url, published_at; quota spent; then article_not_editable", async () => {
      await freshNetworkDay();
      const article = await create({ content_markdown: "## Hello\n\nA **real** article." });
      const answer = await call("POST", `/v1/articles/${article.id}/publish`, {}, undefined, { "Idempotency-Key": unique("publish").replace(/ /g, "-") });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const data = answer.body.data;
      assert.deepEqual(Object.keys(data).sort(), ["id", "post_id", "published_at", "status", "url"]);
      assert.equal(data.id, article.id);
      assert.equal(data.status, "published");
      assert.match(data.post_id, /^[0-9]+$/);
      assert.match(data.url, new RegExp(`/status/${data.post_id}$`));
      const read = (await call("GET", `/v1/articles/${article.id}`)).body.data;
      assert.equal(read.status, "published");
      assert.equal(read.x_post_id, data.post_id);
      assert.equal(read.published_at, data.published_at);
      assert.deepEqual(await ledger(article.id), { balance: 1, entries: ["+article published"] });
      assert.equal((await onNetwork(await storedToken(article.id))).length, 1);
      expectError(await call("POST", `/v1/articles/${article.id}/publish`, {}), 409, "article_not_editable");
      expectError(await call("PATCH", `/v1/articles/${article.id}`, { title: "Edited" }), 409, "article_not_editable");
      expectError(await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(10) }), 409, "article_not_editable");
      expectError(await call("POST", `/v1/articles/${article.id}/unschedule`, {}), 409, "article_not_scheduled");
      // The record of a published article may go; its unit stays spent.
      assert.equal((await call("DELETE", `/v1/articles/${article.id}`)).status, 200);
      assert.equal((await ledger(article.id)).balance, 1);
    });

    test("publishing a scheduled article uses the unit it holds", async () => {
      await freshNetworkDay();
      const article = await create();
      await call("POST", `/v1/articles/${article.id}/schedule`, { scheduled_for: minutesAhead(60) });
      const answer = await call("POST", `/v1/articles/${article.id}/publish`, {});
      assert.equal(answer.status, 200);
      assert.deepEqual(await ledger(article.id), { balance: 1, entries: ["+article scheduled"] });
      const read = (await call("GET", `/v1/articles/${article.id}`)).body.data;
      assert.equal(read.status, "published");
    });

    test("publish errors: empty body 400; no premium tier 403 x_premium_required (draft, refunded)", async () => {
      const empty = await create({ content_markdown: "  " });
      expectError(await call("POST", `/v1/articles/${empty.id}/publish`, {}), 400, "invalid_parameter");
      const linked = await create({ account_id: harness.world.accounts.linked });
      expectError(await call("POST", `/v1/articles/${linked.id}/publish`, {}), 403, "x_premium_required");
      const read = (await call("GET", `/v1/articles/${linked.id}`)).body.data;
      assert.equal(read.status, "draft");
      assert.match(read.last_error, /premium/i);
      assert.deepEqual(await ledger(linked.id), { balance: 0, entries: ["+article published", "-article publish failed"] });
    });

    test("X's daily article limit and an unreachable X answer 502 x_publish_failed; the article is back in draft, refunded", async () => {
      await freshNetworkDay();
      const { sql } = harness.services;
      const main = harness.world.accounts.main;
      // X allows 5 article publishes a day: five made today already.
      await sql`
        insert into network_articles (seq, article_id, author_id, title, markdown, status, post_id, created_at, published_at)
        select 990000000 + g + ${index * 100}, 'limit-' || ${index} || '-' || g, ${main}, 'earlier', 'x', 'published', null, now(), now()
          from generate_series(1, 5) g`;
      try {
        const article = await create();
        const answer = await call("POST", `/v1/articles/${article.id}/publish`, {});
        expectError(answer, 502, "x_publish_failed");
        const read = (await call("GET", `/v1/articles/${article.id}`)).body.data;
        assert.equal(read.status, "draft");
        assert.match(read.last_error, /5 article publishes a day/);
        assert.deepEqual(await ledger(article.id), { balance: 0, entries: ["+article published", "-article publish failed"] });
      } finally {
        await sql`delete from network_articles where article_id like ${`limit-${index}-%`}`;
      }
      const down: SocialNetwork = { ...harness.services.network, publishArticle: () => Promise.reject(new NetworkUnavailableError()) };
      const article = await create();
      await withNetwork(harness.services, down, async () => {
        expectError(await call("POST", `/v1/articles/${article.id}/publish`, {}), 502, "x_publish_failed");
      });
      assert.equal((await call("GET", `/v1/articles/${article.id}`)).body.data.status, "draft");
      assert.equal((await ledger(article.id)).balance, 0);
    });

    test("a publish that times out after X published answers 504 and stays publishing; the retry with the same key publishes once", async () => {
      await freshNetworkDay();
      const { network: lossy, calls } = lossyOnce(harness.services.network);
      const article = await create();
      const key = unique("timeout").replace(/ /g, "-");
      await withNetwork(harness.services, lossy, async () => {
        const first = await call("POST", `/v1/articles/${article.id}/publish`, {}, undefined, { "Idempotency-Key": key });
        expectError(first, 504, "upstream_timeout");
        const pending = (await call("GET", `/v1/articles/${article.id}`)).body.data;
        assert.equal(pending.status, "publishing");
        assert.equal((await ledger(article.id)).balance, 1);
        // Editing, deleting or unscheduling waits for the outcome.
        expectError(await call("PATCH", `/v1/articles/${article.id}`, { title: "x" }), 409, "article_not_editable");
        expectError(await call("DELETE", `/v1/articles/${article.id}`), 409, "article_not_editable");
        const listed = await call("GET", "/v1/articles?status=publishing&limit=100");
        assert.ok(listed.body.data.some((item: any) => item.id === article.id));

        const retry = await call("POST", `/v1/articles/${article.id}/publish`, {}, undefined, { "Idempotency-Key": key });
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        assert.equal(retry.body.data.status, "published");
        const replay = await call("POST", `/v1/articles/${article.id}/publish`, {}, undefined, { "Idempotency-Key": key });
        assert.equal(replay.headers.get("idempotency-replayed"), "true");
        assert.deepEqual(replay.body.data, retry.body.data);
      });
      assert.equal(calls.publishArticle, 2);
      const token = await storedToken(article.id);
      const published = await onNetwork(token);
      assert.equal(published.length, 1, "the network holds one article for the token");
      assert.equal(published[0].post_id, (await call("GET", `/v1/articles/${article.id}`)).body.data.x_post_id);
      assert.deepEqual(await ledger(article.id), { balance: 1, entries: ["+article published"] });
    });
  });
});

describe("the publish_scheduled_article job", () => {
  const main = () => harness.world.accounts.main;
  const call = (method: string, path: string, body?: unknown) => transports(harness)[0].request(method, path, { key: harness.world.keys.write, body });

  async function scheduleOne(minutes: number): Promise<{ id: string; at: string }> {
    const created = await call("POST", "/v1/articles", { title: `Job article ${Math.random()}`, content_markdown: "Scheduled body.", account_id: main() });
    const at = minutesAhead(minutes);
    const answer = await call("POST", `/v1/articles/${created.body.data.id}/schedule`, { scheduled_for: at });
    assert.equal(answer.status, 200);
    return { id: created.body.data.id, at };
  }

  /** One pass of the runner over article jobs, as of `at` on the app's clock (the jobs are made due on the database's). */
  async function runAt(at: string, network: SocialNetwork = harness.services.network) {
    const { sql } = harness.services;
    await sql`update jobs set run_at = now() - interval '1 second' where kind = ${JOB_KIND} and status = 'queued'`;
    const handlers = jobHandlers({ sql, clock: manualClock(at), network });
    return runJobsOnce({ sql, handlers: { [JOB_KIND]: handlers[JOB_KIND] }, runnerId: "articles-test", batchSize: 50 });
  }

  test("publishes a scheduled article at its time through the job runner; a stale version does nothing", async () => {
    await freshNetworkDay();
    await harness.services.sql`delete from jobs where kind = ${JOB_KIND}`;
    const { id, at } = await scheduleOne(5);
    const moved = minutesAhead(10);
    await call("POST", `/v1/articles/${id}/schedule`, { scheduled_for: moved });
    // Before its time nothing is published (the job retries later).
    const early = await runAt(at);
    assert.equal(early.completed, 1, "the stale job of the first time is done");
    assert.equal(early.retried, 1, "the current job is not due yet");
    assert.equal((await call("GET", `/v1/articles/${id}`)).body.data.status, "scheduled");
    const due = new Date(Date.parse(moved) + 1000).toISOString();
    const result = await runAt(due);
    assert.equal(result.completed, 1);
    const read = (await call("GET", `/v1/articles/${id}`)).body.data;
    assert.equal(read.status, "published");
    assert.match(read.x_post_id, /^[0-9]+$/);
    assert.deepEqual(await ledger(id), { balance: 1, entries: ["+article scheduled"] });
    assert.equal((await onNetwork(await storedToken(id))).length, 1);
  });

  test("a refusal at the scheduled time returns the article to draft and refunds its unit", async () => {
    await harness.services.sql`delete from jobs where kind = ${JOB_KIND}`;
    const created = await call("POST", "/v1/articles", { title: "No premium", content_markdown: "Body.", account_id: harness.world.accounts.linked });
    const at = minutesAhead(5);
    await call("POST", `/v1/articles/${created.body.data.id}/schedule`, { scheduled_for: at });
    const result = await runAt(new Date(Date.parse(at) + 1000).toISOString());
    assert.equal(result.completed, 1);
    const read = (await call("GET", `/v1/articles/${created.body.data.id}`)).body.data;
    assert.equal(read.status, "draft");
    assert.match(read.last_error, /premium/i);
    assert.deepEqual(await ledger(created.body.data.id), { balance: 0, entries: ["+article scheduled", "-article publish failed"] });
  });

  test("a timeout at the scheduled time stays publishing and the job's retry reconciles it by token (published once)", async () => {
    await freshNetworkDay();
    await harness.services.sql`delete from jobs where kind = ${JOB_KIND}`;
    const { network: lossy, calls } = lossyOnce(harness.services.network);
    const { id, at } = await scheduleOne(5);
    const due = new Date(Date.parse(at) + 1000).toISOString();
    const first = await runAt(due, lossy);
    assert.equal(first.retried, 1);
    const pending = (await call("GET", `/v1/articles/${id}`)).body.data;
    assert.equal(pending.status, "publishing");
    assert.equal((await ledger(id)).balance, 1);
    const second = await runAt(due, lossy);
    assert.equal(second.completed, 1);
    assert.equal((await call("GET", `/v1/articles/${id}`)).body.data.status, "published");
    assert.equal(calls.publishArticle, 2);
    assert.equal((await onNetwork(await storedToken(id))).length, 1);
    assert.deepEqual(await ledger(id), { balance: 1, entries: ["+article scheduled"] });
  });
});

describe("the demo articles", () => {
  test("ensureDemoArticles makes one draft, one scheduled and one published article on A's main account, once", async () => {
    await freshNetworkDay();
    const main = harness.world.accounts.main;
    const first = await ensureDemoArticles(harness.services, main);
    const again = await ensureDemoArticles(harness.services, main);
    assert.deepEqual(again, first);
    const call = (id: string) => transports(harness)[0].request("GET", `/v1/articles/${id}`, { key: harness.world.keys.write });
    assert.equal((await call(first.draft)).body.data.status, "draft");
    assert.equal((await call(first.scheduled)).body.data.status, "scheduled");
    assert.equal((await call(first.published)).body.data.status, "published");
    assert.equal((await ledger(first.scheduled)).balance, 1);
    assert.deepEqual(harness.world.articles, first, "the demo world publishes the same ids under articles.*");
  });
});
