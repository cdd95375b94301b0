/**
 * Bulk queue calls (supplement: Queue, `POST /v1/scheduled-posts/bulk/retime`,
 * `/bulk/auto-retweet`, `/bulk/delete`; spec Limits 3, rule 6, rule 9): queued posts only,
 * counts plus a result per id, bounds, all-or-none retime, exact quota refunds, one write
 * per call, shared accounts and the scheduler fault.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { freshLinkedAccount, insertPostRow, postRow, timesOf } from "./support/scheduled_post_rows.ts";
import { postQuotaOf } from "../core/post_quota/post_quota.ts";
import { ledgerBalanceOf } from "../core/post_quota/post_quota_queries.ts";

const NOW = "2027-03-08T12:00:00Z";
const clock = manualClock(NOW);
const at = (offsetSeconds: number) => new Date(Date.parse(NOW) + offsetSeconds * 1000).toISOString();
const DAY = 86_400;

let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

describeMatrix(({ index, name, transport }) => {
  describe(`bulk queue calls over ${name}`, () => {
    const label = index === 0 ? "a" : "b";
    const post = (path: string, body: unknown, key = harness.world.keys.write) =>
      transport(harness).request("POST", `/v1/scheduled-posts/bulk/${path}`, { key, body });
    const fresh = (name: string) => freshLinkedAccount(harness.services.sql, `${name}${label}`);
    const sql = () => harness.services.sql;

    test("retime moves queued posts, answers a result per id, and skips what is not a queued post of the account", async () => {
      const account = await fresh("rt");
      const queued = await insertPostRow(sql(), account, { scheduledFor: at(DAY) });
      const same = await insertPostRow(sql(), account, { scheduledFor: at(2 * DAY) });
      const draft = await insertPostRow(sql(), account, { status: "draft", scheduledFor: at(DAY) });
      const sent = await insertPostRow(sql(), account, { status: "sent", scheduledFor: at(-DAY) });
      const failed = await insertPostRow(sql(), account, { status: "error", scheduledFor: at(-DAY) });
      const overdue = await insertPostRow(sql(), account, { scheduledFor: at(-30) });
      const elsewhere = await insertPostRow(sql(), harness.world.accounts.main, { scheduledFor: at(DAY) });
      const version = (await postRow(sql(), queued)).publish_version;

      const answer = await post("retime", {
        account_id: account,
        moves: [
          { id: queued, scheduled_for: "2027-03-10T08:30:00+01:00" },
          { id: same, scheduled_for: at(2 * DAY) },
          { id: draft, scheduled_for: at(3 * DAY) },
          { id: sent, scheduled_for: at(3 * DAY) },
          { id: failed, scheduled_for: at(3 * DAY) },
          { id: overdue, scheduled_for: at(3 * DAY) },
          { id: elsewhere, scheduled_for: at(3 * DAY) },
          { id: "999999999", scheduled_for: at(3 * DAY) },
        ],
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, {
        updated: 1,
        skipped: 7,
        results: [
          { id: queued, result: "updated" },
          { id: same, result: "skipped", reason: "unchanged" },
          { id: draft, result: "skipped", reason: "not_queued" },
          { id: sent, result: "skipped", reason: "not_queued" },
          { id: failed, result: "skipped", reason: "not_queued" },
          { id: overdue, result: "skipped", reason: "publishing" },
          { id: elsewhere, result: "skipped", reason: "not_found" },
          { id: "999999999", result: "skipped", reason: "not_found" },
        ],
      });
      assert.deepEqual(await timesOf(sql(), [queued, same, draft, elsewhere]), ["2027-03-10T07:30:00.000Z", at(2 * DAY), at(DAY), at(DAY)]);
      // The publisher is re-armed for the new time.
      const row = await postRow(sql(), queued);
      assert.equal(row.publish_version, version + 1);
      const jobs = await sql()<{ run_at: Date }[]>`select run_at from jobs where unique_key = ${`publish:${queued}:${row.publish_version}`}`;
      assert.deepEqual(
        jobs.map((job) => job.run_at.toISOString()),
        ["2027-03-10T07:30:00.000Z"],
      );

      // Re-running converges: the same time is a no-op.
      const rerun = await post("retime", { account_id: account, moves: [{ id: queued, scheduled_for: "2027-03-10T07:30:00Z" }] });
      assert.deepEqual(rerun.body.data, { updated: 0, skipped: 1, results: [{ id: queued, result: "skipped", reason: "unchanged" }] });
    });

    test("retime is all or none: one bad move fails the call with 400 invalid_parameter and nothing moves", async () => {
      const account = await fresh("aon");
      const first = await insertPostRow(sql(), account, { scheduledFor: at(DAY) });
      const second = await insertPostRow(sql(), account, { scheduledFor: at(2 * DAY) });
      for (const [bad, field] of [
        [{ id: second, scheduled_for: at(30) }, "moves[1].scheduled_for"],
        [{ id: second, scheduled_for: at(59) }, "moves[1].scheduled_for"],
        [{ id: second, scheduled_for: "2028-09-09T12:00:00Z" }, "moves[1].scheduled_for"],
        [{ id: second, scheduled_for: "2027-03-20T12:00:00" }, "moves[1].scheduled_for"],
        [{ id: first, scheduled_for: at(4 * DAY) }, "moves[1].id"],
        [{ id: "abc", scheduled_for: at(4 * DAY) }, "moves[1].id"],
        [{ id: 4.2, scheduled_for: at(4 * DAY) }, "moves[1].id"],
        [{ id: 0, scheduled_for: at(4 * DAY) }, "moves[1].id"],
      ] as const) {
        const answer = await post("retime", { account_id: account, moves: [{ id: first, scheduled_for: at(3 * DAY) }, bad] });
        assert.equal(answer.status, 400, JSON.stringify(bad));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(`Invalid "${field.replace(/[[\]]/g, "\\$&")}"`), answer.body.error.message);
      }
      assert.deepEqual(await timesOf(sql(), [first, second]), [at(DAY), at(2 * DAY)]);
      const edge = await post("retime", { account_id: account, moves: [{ id: first, scheduled_for: at(60) }] });
      assert.equal(edge.body.data.updated, 1);
    });

    test("retime takes 1 to 500 moves (0 and 501 answer 400 invalid_parameter)", async () => {
      const account = await fresh("rtb");
      const moves = (count: number) => Array.from({ length: count }, (_, i) => ({ id: String(900_000_000 + i), scheduled_for: at(DAY) }));
      for (const count of [0, 501]) {
        const answer = await post("retime", { account_id: account, moves: moves(count) });
        assert.equal(answer.status, 400, String(count));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, /Invalid "moves"/);
      }
      const missing = await post("retime", { account_id: account });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.code, "invalid_parameter");
      const full = await post("retime", { account_id: account, moves: moves(500) });
      assert.equal(full.status, 200);
      assert.deepEqual([full.body.data.updated, full.body.data.skipped, full.body.data.results.length], [0, 500, 500]);
    });

    test("auto-retweet adds the setting to queued posts and never overwrites an existing one", async () => {
      const account = await fresh("ar");
      const plain = await insertPostRow(sql(), account, { scheduledFor: at(DAY) });
      const existing = await insertPostRow(sql(), account, { scheduledFor: at(DAY), autoRetweet: { after_hours: 2 } });
      const draft = await insertPostRow(sql(), account, { status: "draft" });
      const answer = await post("auto-retweet", {
        account_id: account,
        ids: [plain, existing, draft, plain, "777777777"],
        auto_retweet: { after_hours: 3, remove_after_hours: 6 },
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, {
        updated: 1,
        skipped: 3,
        results: [
          { id: plain, result: "updated" },
          { id: existing, result: "skipped", reason: "has_auto_retweet" },
          { id: draft, result: "skipped", reason: "not_queued" },
          { id: "777777777", result: "skipped", reason: "not_found" },
        ],
      });
      assert.deepEqual((await postRow(sql(), plain)).auto_retweet, { after_hours: 3, remove_after_hours: 6 });
      assert.deepEqual((await postRow(sql(), existing)).auto_retweet, { after_hours: 2 });
      assert.equal((await postRow(sql(), draft)).auto_retweet, null);
      const rerun = await post("auto-retweet", { account_id: account, ids: [plain], auto_retweet: { after_hours: 1 } });
      assert.deepEqual(rerun.body.data, { updated: 0, skipped: 1, results: [{ id: plain, result: "skipped", reason: "has_auto_retweet" }] });
      assert.deepEqual((await postRow(sql(), plain)).auto_retweet, { after_hours: 3, remove_after_hours: 6 });
    });

    test("auto-retweet and delete take 1 to 100 ids and auto-retweet hours 1-12 (else 400 invalid_parameter)", async () => {
      const account = await fresh("arb");
      const ids = (count: number) => Array.from({ length: count }, (_, i) => String(800_000_000 + i));
      for (const [path, body, field] of [
        ["auto-retweet", { ids: [], auto_retweet: { after_hours: 1 } }, "ids"],
        ["auto-retweet", { ids: ids(101), auto_retweet: { after_hours: 1 } }, "ids"],
        ["auto-retweet", { ids: ["01"], auto_retweet: { after_hours: 1 } }, "ids[0]"],
        ["auto-retweet", { ids: ids(1), auto_retweet: { after_hours: 0 } }, "auto_retweet.after_hours"],
        ["auto-retweet", { ids: ids(1), auto_retweet: { after_hours: 13 } }, "auto_retweet.after_hours"],
        ["auto-retweet", { ids: ids(1), auto_retweet: { after_hours: 2, remove_after_hours: 13 } }, "auto_retweet.remove_after_hours"],
        ["auto-retweet", { ids: ids(1) }, "auto_retweet"],
        ["delete", { ids: [] }, "ids"],
        ["delete", { ids: ids(101) }, "ids"],
        ["delete", { ids: [-7] }, "ids[0]"],
        ["delete", { ids: [true] }, "ids[0]"],
      ] as const) {
        const answer = await post(path, { account_id: account, ...body });
        assert.equal(answer.status, 400, `${path} ${field}`);
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, new RegExp(`Invalid "${field.replace(/[[\]]/g, "\\$&")}"`), answer.body.error.message);
      }
      for (const path of ["auto-retweet", "delete"]) {
        const answer = await post(path, { account_id: account, ids: ids(100), auto_retweet: { after_hours: 12 } });
        assert.equal(answer.status, 200, path);
        assert.equal(answer.body.data.skipped, 100);
      }
    });

    test("delete removes queued posts and refunds exactly the quota unit each took, to its own period", async () => {
      const account = await fresh("del");
      const now = new Date(NOW);
      const lastPeriod = new Date(Date.parse(NOW) - 30 * DAY * 1000);
      const thisMonth = await insertPostRow(sql(), account, { scheduledFor: at(DAY), chargeAt: now });
      const earlier = await insertPostRow(sql(), account, { scheduledFor: at(2 * DAY), chargeAt: lastPeriod });
      const kept = await insertPostRow(sql(), account, { scheduledFor: at(3 * DAY), chargeAt: now });
      const draft = await insertPostRow(sql(), account, { status: "draft" });
      const sent = await insertPostRow(sql(), account, { status: "sent", scheduledFor: at(-DAY) });
      const usedNow = (await postQuotaOf(sql(), account, now)).used;
      const usedBefore = (await postQuotaOf(sql(), account, lastPeriod)).used;

      // An id may come as the number (real clients send what they hold); answers carry the string.
      const answer = await post("delete", { account_id: account, ids: [Number(thisMonth), earlier, draft, sent] });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, {
        deleted: 2,
        skipped: 2,
        results: [
          { id: thisMonth, result: "deleted" },
          { id: earlier, result: "deleted" },
          { id: draft, result: "skipped", reason: "not_queued" },
          { id: sent, result: "skipped", reason: "not_queued" },
        ],
      });
      assert.equal((await postQuotaOf(sql(), account, now)).used, usedNow - 1);
      assert.equal((await postQuotaOf(sql(), account, lastPeriod)).used, usedBefore - 1);
      for (const id of [thisMonth, earlier]) {
        assert.equal(await postRow(sql(), id), undefined);
        assert.equal(await ledgerBalanceOf(sql(), `post:${id}`), 0);
      }
      assert.equal(await ledgerBalanceOf(sql(), `post:${kept}`), 1);
      assert.equal((await postRow(sql(), draft)).status, "draft");
      assert.equal((await postRow(sql(), sent)).status, "sent");

      // Re-running converges: deleted ids are skipped and nothing is refunded twice.
      const rerun = await post("delete", { account_id: account, ids: [thisMonth, earlier] });
      assert.deepEqual(rerun.body.data, {
        deleted: 0,
        skipped: 2,
        results: [
          { id: thisMonth, result: "skipped", reason: "not_found" },
          { id: earlier, result: "skipped", reason: "not_found" },
        ],
      });
      assert.equal((await postQuotaOf(sql(), account, now)).used, usedNow - 1);
    });

    test("each bulk call costs one write whatever the post count (Limits 3)", async () => {
      const account = await fresh("cost");
      const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => insertPostRow(sql(), account, { scheduledFor: at((i + 1) * DAY), chargeAt: false })));
      const remaining = (answer: { headers: Headers }) => Number(/"writes-minute";r=(\d+)/.exec(answer.headers.get("RateLimit") ?? "")?.[1]);
      const first = await post("auto-retweet", { account_id: account, ids: [ids[0]], auto_retweet: { after_hours: 1 } });
      const many = await post("retime", { account_id: account, moves: ids.map((id, i) => ({ id, scheduled_for: at((i + 10) * DAY) })) });
      const all = await post("delete", { account_id: account, ids });
      assert.equal(many.body.data.updated, 5);
      assert.equal(all.body.data.deleted, 5);
      assert.ok(Number.isFinite(remaining(first)));
      assert.equal(remaining(first) - remaining(many), 1);
      assert.equal(remaining(many) - remaining(all), 1);
    });

    test("a shared account answers 403 writes_main_account_only; a foreign one 404 account_not_found; a read key 403 insufficient_scope", async () => {
      const shared = await insertPostRow(sql(), harness.world.accounts.shared, { scheduledFor: at(DAY), chargeAt: false });
      for (const [path, body] of [
        ["retime", { moves: [{ id: shared, scheduled_for: at(2 * DAY) }] }],
        ["auto-retweet", { ids: [shared], auto_retweet: { after_hours: 1 } }],
        ["delete", { ids: [shared] }],
      ] as const) {
        const refused = await post(path, { account_id: harness.world.accounts.shared, ...body });
        assert.equal(refused.status, 403, path);
        assert.equal(refused.body.error.code, "writes_main_account_only");
        const foreign = await post(path, { account_id: harness.world.accounts.other_user, ...body });
        assert.equal(foreign.status, 404, path);
        assert.equal(foreign.body.error.code, "account_not_found");
        const readOnly = await post(path, body, harness.world.keys.read);
        assert.equal(readOnly.status, 403, path);
        assert.equal(readOnly.body.error.code, "insufficient_scope");
        // Without account_id the main account's queue is meant: Dana's post is not in it.
        const main = await post(path, body);
        assert.equal(main.status, 200, path);
        assert.equal(main.body.data.results[0].reason, "not_found");
      }
      assert.deepEqual(await timesOf(sql(), [shared]), [at(DAY)]);
    });
  });
});

describe("bulk calls while the scheduler is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "scheduler", clock } });
  });
  after(() => failing.close());

  describeMatrix(({ index, name }) => {
    test(`every bulk call answers 503 upstream_unavailable and changes nothing (${name})`, async () => {
      const transport = transports(failing)[index];
      const id = await insertPostRow(failing.services.sql, failing.world.accounts.main, { scheduledFor: at(DAY) });
      for (const [path, body] of [
        ["retime", { moves: [{ id, scheduled_for: at(2 * DAY) }] }],
        ["auto-retweet", { ids: [id], auto_retweet: { after_hours: 1 } }],
        ["delete", { ids: [id] }],
      ] as const) {
        const answer = await transport.request("POST", `/v1/scheduled-posts/bulk/${path}`, { key: failing.world.keys.write, body });
        assert.equal(answer.status, 503, path);
        assert.equal(answer.body.error.code, "upstream_unavailable");
      }
      const row = await postRow(failing.services.sql, id);
      assert.deepEqual([row.scheduled_for?.toISOString(), row.auto_retweet], [at(DAY), null]);
    });
  });
});
