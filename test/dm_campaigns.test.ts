/**
 * DM campaigns over REST (docs/areas.md "DM campaigns and auto DM"; spec rule 7, DM limits, Errors
 * `dm_limit_reached`, Idempotency; supplement: DMs and section 5): create with its counts,
 * validation, the account itself and duplicates, Idempotency-Key, the plan codes, limits
 * read, campaign read, queue paging, cancel, account rules, through both transports; and
 * the month/day/spread arithmetic at its boundaries with a fixed clock.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { dmPeople, dmSenderAccount, messagedPeople } from "./support/dm_people.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { ApiError } from "../core/errors.ts";
import { fillTokens } from "../core/dm/dm_text.ts";
import { type DmAllowance, PLANS } from "../core/plans/plans.ts";

let harness: Harness;
let people: ReturnType<typeof dmPeople>;

before(async () => {
  harness = await startHarness();
  people = dmPeople(harness.services.network as SimulatedNetwork, await messagedPeople(harness.services.sql));
});
after(() => harness.close());

const recipientsOf = (ids: string[]) => ids.map((x_user_id) => ({ x_user_id }));

describeMatrix(({ index, name }) => {
  const transport = (): Transport => transports(harness)[index];
  const send = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers?: Record<string, string>) =>
    transport().request(method, path, { key, body, headers });

  describe(`DM campaigns (${name})`, () => {
    test("a create only enqueues: counts, the campaign, the queue and the month's commitment", async () => {
      const before = (await send("GET", "/v1/dm/limits")).body.data;
      const ids = people.open(3);
      const answer = await send("POST", "/v1/dm/campaigns", {
        message: "Hi [first], thanks for reading",
        recipients: [...recipientsOf(ids.slice(0, 2)), { x_user_id: ids[2], message: "Own text for [handle]", name: "Ada Lovelace" }],
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const created = answer.body.data;
      assert.deepEqual({ ...created, id: 0, campaign_id: 0 }, { id: 0, campaign_id: 0, queued: 3, queued_now: 3, scheduled: 0, skipped: 0, duplicates: 0 });
      assert.equal(created.id, created.campaign_id);

      const campaign = await send("GET", `/v1/dm/campaigns/${created.id}`);
      assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
      assert.deepEqual(campaign.body.data.counts, { pending: 3, sending: 0, sent: 0, failed: 0, skipped: 0, total: 3 });
      assert.deepEqual(
        campaign.body.data.messages.map((m: any) => [m.x_user_id, m.message, m.status, m.text]),
        [
          [ids[0], "Hi [first], thanks for reading", "pending", null],
          [ids[1], "Hi [first], thanks for reading", "pending", null],
          [ids[2], "Own text for [handle]", "pending", null],
        ],
      );
      assert.equal(campaign.body.data.messages[2].name, "Ada Lovelace");
      // The id as a decimal string names the same campaign.
      assert.equal((await send("GET", `/v1/dm/campaigns/${String(created.id)}`)).body.data.id, created.id);

      const queue = await send("GET", `/v1/dm/queue?campaign_id=${created.id}&status=pending`);
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      assert.equal(queue.body.data.length, 3);
      assert.deepEqual(queue.body.pagination, { limit: 50, offset: 0, total: 3, has_more: false, next_offset: null });

      const limits = (await send("GET", "/v1/dm/limits")).body.data;
      assert.equal(limits.monthly.committed, before.monthly.committed + 3, "queued unsent messages are committed");
      assert.equal(limits.daily_bulk.used, before.daily_bulk.used + 3);
    });

    test("the account never messages itself; people already queued or repeated are duplicates", async () => {
      const [first, second] = people.open(2);
      const main = harness.world.accounts.main;
      await send("POST", "/v1/dm/campaigns", { message: "one", recipients: recipientsOf([first]) });
      const answer = await send("POST", "/v1/dm/campaigns", { message: "two", recipients: recipientsOf([main, first, second, second]) });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const { queued, queued_now, scheduled, skipped, duplicates } = answer.body.data;
      assert.deepEqual({ queued, queued_now, scheduled, skipped, duplicates }, { queued: 1, queued_now: 1, scheduled: 0, skipped: 1, duplicates: 2 });
    });

    test("Idempotency-Key replays the first answer; the same key with another body is 409 idempotency_key_reuse", async () => {
      const key = `dm-${index}-${Date.now()}`;
      const body = { message: "Replay me", recipients: recipientsOf(people.open(2)) };
      const first = await send("POST", "/v1/dm/campaigns", body, undefined, { "Idempotency-Key": key });
      assert.equal(first.status, 201);
      const again = await send("POST", "/v1/dm/campaigns", body, undefined, { "Idempotency-Key": key });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(again.body, first.body);
      const campaign = await send("GET", `/v1/dm/campaigns/${first.body.data.id}`);
      assert.equal(campaign.body.data.counts.total, 2, "the replay queued nothing more");
      expectError(await send("POST", "/v1/dm/campaigns", { ...body, message: "Other" }, undefined, { "Idempotency-Key": key }), 409, "idempotency_key_reuse");
    });

    test("bad bodies are 400 invalid_parameter naming the field", async () => {
      const one = recipientsOf(people.open(1));
      const cases: [unknown, RegExp][] = [
        [{ message: "x", recipients: [] }, /recipients/],
        [{ message: "x", recipients: Array.from({ length: 101 }, (_, i) => ({ x_user_id: String(1_000 + i) })) }, /recipients/],
        [{ recipients: one }, /recipients\[0\]\.message/],
        [{ message: "", recipients: one }, /message/],
        [{ message: "x".repeat(1001), recipients: one }, /message/],
        [{ message: "x", recipients: one, spread: false }, /spread/],
        [{ message: "x", recipients: [{ x_user_id: "abc" }] }, /x_user_id/],
        [{ message: "x", recipients: [{ x_user_id: "12", message: "y".repeat(1001) }] }, /message/],
      ];
      for (const [body, field] of cases) {
        const answer = await send("POST", "/v1/dm/campaigns", body);
        expectError(answer, 400, "invalid_parameter");
        assert.match(answer.body.error.message, field);
      }
      for (const query of ["limit=0", "limit=201", "offset=-1", "status=queued", "campaign_id=abc"]) {
        expectError(await send("GET", `/v1/dm/queue?${query}`), 400, "invalid_parameter");
      }
      expectError(await send("GET", "/v1/dm/campaigns/abc"), 400, "invalid_parameter");
    });

    test("a plan without DMs is 403 dm_not_in_plan", async () => {
      expectError(
        await send("POST", "/v1/dm/campaigns", { message: "x", recipients: recipientsOf(people.open(1)) }, harness.world.keys.trial),
        403,
        "dm_not_in_plan",
      );
      expectError(await send("GET", "/v1/dm/limits", undefined, harness.world.keys.trial), 403, "dm_not_in_plan");
    });

    test("a lost network authorisation is 409 reauth_required until it is back", async () => {
      const { sql } = harness.services;
      const main = harness.world.accounts.main;
      await sql`insert into dm_account_states (account_id, reauth_required_at) values (${main}, now())
                on conflict (account_id) do update set reauth_required_at = now()`;
      try {
        expectError(await send("POST", "/v1/dm/campaigns", { message: "x", recipients: recipientsOf(people.open(1)) }), 409, "reauth_required");
      } finally {
        await sql`update dm_account_states set reauth_required_at = null where account_id = ${main}`;
      }
    });

    test("GET /v1/dm/limits answers the plan's numbers", async () => {
      const answer = await send("GET", "/v1/dm/limits");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { data } = answer.body;
      const [{ plan }] = await harness.services.sql<{ plan: string }[]>`
        select u.plan from users u join accounts a on a.user_id = u.id where a.id = ${harness.world.accounts.main}`;
      const dms = PLANS[plan].dms!;
      assert.deepEqual(
        [data.monthly.max, data.daily_bulk.max, data.per_post_max, data.posts_with_auto_dm, data.scheduling_enabled],
        [dms.monthlyMax, dms.dailyBulkMax, dms.perPostMax, dms.postsWithAutoDm, dms.schedulingEnabled],
      );
      const basic = (await send("GET", "/v1/dm/limits", undefined, harness.world.keys.throttled)).body.data;
      assert.equal(basic.scheduling_enabled, false);
    });

    test("cancel removes unsent messages, returns their units, keeps sent ones; cancelling again cancels nothing", async () => {
      const ids = people.open(3);
      const created = (await send("POST", "/v1/dm/campaigns", { message: "Cancel me", recipients: recipientsOf(ids) })).body.data;
      // One went out already (as the sender would have recorded it).
      await harness.services.sql`
        update dm_messages set status = 'sent', sent_at = now(), x_dm_id = '1' where campaign_id = ${created.id} and recipient_id = ${ids[0]}`;
      const before = (await send("GET", "/v1/dm/limits")).body.data.monthly.committed;
      const answer = await send("DELETE", `/v1/dm/campaigns/${created.id}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.cancelled, 2);
      assert.equal(answer.body.data.monthly_returned, 2);
      assert.equal(answer.body.data.not_recalled, 1);
      assert.equal((await send("GET", "/v1/dm/limits")).body.data.monthly.committed, before - 2);
      const campaign = (await send("GET", `/v1/dm/campaigns/${created.id}`)).body.data;
      assert.deepEqual(campaign.counts, { pending: 0, sending: 0, sent: 1, failed: 0, skipped: 0, total: 1 });
      assert.equal((await send("DELETE", `/v1/dm/campaigns/${created.id}`)).body.data.cancelled, 0);
    });

    test("GET /v1/dm/campaigns lists the account's campaigns newest first with their counts and no messages", async () => {
      const first = (await send("POST", "/v1/dm/campaigns", { message: "List me", recipients: recipientsOf(people.open(2)) })).body.data;
      const second = (await send("POST", "/v1/dm/campaigns", { message: "List me too", recipients: recipientsOf(people.open(1)) })).body.data;
      const listed = await send("GET", "/v1/dm/campaigns?limit=2");
      assert.equal(listed.status, 200);
      assert.deepEqual(
        listed.body.data.map((campaign: any) => campaign.id),
        [second.id, first.id],
      );
      assert.deepEqual(listed.body.data[1].counts, { pending: 2, sending: 0, sent: 0, failed: 0, skipped: 0, total: 2 });
      assert.equal(listed.body.data[0].messages, undefined);
      assert.equal(listed.body.pagination.has_more, true);
      const full = (await send("GET", `/v1/dm/campaigns/${listed.body.data[1].id}`)).body.data;
      assert.deepEqual(full.counts, listed.body.data[1].counts);
      // Another account's campaigns are not listed; another user's account is refused.
      assert.ok(
        (await send("GET", `/v1/dm/campaigns?account_id=${harness.world.accounts.linked}&limit=100`)).body.data.every(
          (campaign: any) => campaign.account_id === harness.world.accounts.linked,
        ),
      );
      expectError(await send("GET", `/v1/dm/campaigns?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      expectError(await send("GET", "/v1/dm/campaigns?limit=101"), 400, "invalid_parameter");
    });

    test("another user's campaign is 404 not_found; a shared account's campaign is read-only", async () => {
      const created = (await send("POST", "/v1/dm/campaigns", { message: "Mine", recipients: recipientsOf(people.open(1)) })).body.data;
      expectError(await send("GET", `/v1/dm/campaigns/${created.id}`, undefined, harness.world.keys.other_user), 404, "not_found");
      expectError(await send("DELETE", `/v1/dm/campaigns/${created.id}`, undefined, harness.world.keys.other_user), 404, "not_found");
      expectError(await send("GET", "/v1/dm/campaigns/999999999"), 404, "not_found");
      // Narrowed to another account of the key's, the campaign is not there.
      expectError(await send("GET", `/v1/dm/campaigns/${created.id}?account_id=${harness.world.accounts.linked}`), 404, "not_found");
      expectError(await send("GET", `/v1/dm/queue?account_id=${harness.world.accounts.other_user}`), 404, "account_not_found");
      expectError(
        await send("POST", "/v1/dm/campaigns", { message: "x", recipients: recipientsOf(people.open(1)), account_id: harness.world.accounts.shared }),
        403,
        "writes_main_account_only",
      );
      // A campaign on the shared account (made by its owner) reads, but does not cancel.
      const shared = harness.world.accounts.shared;
      const [row] = await harness.services.sql<{ id: number }[]>`insert into dm_campaigns (account_id) values (${shared}) returning id`;
      assert.equal((await send("GET", `/v1/dm/campaigns/${row.id}`)).status, 200);
      expectError(await send("DELETE", `/v1/dm/campaigns/${row.id}`), 403, "writes_main_account_only");
    });

    test("the demo campaign has sent, pending and scheduled messages", async () => {
      const answer = await send("GET", `/v1/dm/campaigns/${harness.world.dm.campaign}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { counts, messages } = answer.body.data;
      assert.equal(counts.sent, 2);
      const later = messages.filter((m: any) => m.status === "pending" && Date.parse(m.send_after) > Date.now() + 3_600_000);
      const dueNow = messages.filter((m: any) => m.status === "pending" && Date.parse(m.send_after) <= Date.now());
      assert.equal(later.length, 2);
      assert.equal(dueNow.length, 1);
      assert.ok(messages.filter((m: any) => m.status === "sent").every((m: any) => m.text.startsWith("Thanks for following, ") && !m.text.includes("[")));
    });

    test("the queue pages by offset", async () => {
      const created = (await send("POST", "/v1/dm/campaigns", { message: "Page", recipients: recipientsOf(people.open(5)) })).body.data;
      const first = await send("GET", `/v1/dm/queue?campaign_id=${created.id}&limit=2`);
      assert.deepEqual(first.body.pagination, { limit: 2, offset: 0, total: 5, has_more: true, next_offset: 2 });
      const last = await send("GET", `/v1/dm/queue?campaign_id=${created.id}&limit=2&offset=4`);
      assert.deepEqual(last.body.pagination, { limit: 2, offset: 4, total: 5, has_more: false, next_offset: null });
      const ids = [...first.body.data, ...(await send("GET", `/v1/dm/queue?campaign_id=${created.id}&limit=2&offset=2`)).body.data, ...last.body.data].map(
        (m: any) => m.id,
      );
      assert.equal(new Set(ids).size, 5);
    });
  });
});

describe("DM limits over REST", () => {
  /** Fills `count` sent messages of the linked account at `sentAt`, counted against the current month. */
  const fill = async (count: number, sentAt: Date) => {
    const { sql } = harness.services;
    const account = harness.world.accounts.linked;
    const [campaign] = await sql<{ id: number }[]>`insert into dm_campaigns (account_id, message) values (${account}, 'filler') returning id`;
    await sql`
      insert into dm_messages (campaign_id, account_id, recipient_id, message, status, send_after, month_start, sent_at)
      select ${campaign.id}, ${account}, (9000000000000000000 + g)::text, 'filler', 'sent', ${sentAt}, date_trunc('month', now() at time zone 'utc') at time zone 'utc', ${sentAt}
        from generate_series(1, ${count}) as g`;
    return campaign.id;
  };

  test("429 dm_limit_reached scope day with Retry-After; spread places the overflow instead; scope month when the month is full", async () => {
    const { sql } = harness.services;
    const linked = harness.world.accounts.linked;
    const limits = (await transports(harness)[0].request("GET", `/v1/dm/limits?account_id=${linked}`, { key: harness.world.keys.write })).body.data;
    const hourAgo = new Date(Date.now() - 3_600_000);
    const filler = await fill(limits.daily_bulk.max - limits.daily_bulk.used, hourAgo);
    try {
      for (const transport of transports(harness)) {
        const body = { message: "Over the day", recipients: recipientsOf(people.open(2)), account_id: linked };
        const refused = await transport.request("POST", "/v1/dm/campaigns", { key: harness.world.keys.write, body });
        expectError(refused, 429, "dm_limit_reached");
        assert.equal(refused.body.error.scope, "day");
        const retryAfter = Number(refused.headers.get("retry-after"));
        assert.ok(retryAfter > 86_400 - 3_600 - 60 && retryAfter <= 86_400 - 3_600 + 1, String(retryAfter));
        const spread = await transport.request("POST", "/v1/dm/campaigns", { key: harness.world.keys.write, body: { ...body, spread: true } });
        assert.equal(spread.status, 201, JSON.stringify(spread.body));
        assert.deepEqual([spread.body.data.queued_now, spread.body.data.scheduled], [0, 2]);
      }
      const now = (await transports(harness)[0].request("GET", `/v1/dm/limits?account_id=${linked}`, { key: harness.world.keys.write })).body.data;
      await fill(now.monthly.max - now.monthly.committed, new Date(Date.now() - 3 * 86_400_000));
      for (const transport of transports(harness)) {
        const body = { message: "Over the month", recipients: recipientsOf(people.open(1)), account_id: linked, spread: true };
        const refused = await transport.request("POST", "/v1/dm/campaigns", { key: harness.world.keys.write, body });
        expectError(refused, 429, "dm_limit_reached");
        assert.equal(refused.body.error.scope, "month");
        assert.ok(Number(refused.headers.get("retry-after")) >= 1);
      }
    } finally {
      await sql`delete from dm_messages where account_id = ${linked}`;
      await sql`delete from dm_campaigns where account_id = ${linked} and id >= ${filler}`;
    }
  });
});

describe("DM limits arithmetic (fixed clock)", () => {
  const allowance: DmAllowance = { monthlyMax: 10, dailyBulkMax: 4, perPostMax: 100, postsWithAutoDm: 5, schedulingEnabled: true };
  const DAY = 86_400_000;
  const enqueue = (accountId: string, now: number, ids: string[], options: { spread?: boolean; allowance?: DmAllowance } = {}) =>
    harness.services.sql.begin((tx) =>
      enqueueCampaign(tx, {
        accountId,
        allowance: options.allowance ?? allowance,
        now,
        message: "Hello [first]",
        recipients: ids.map((x_user_id) => ({ x_user_id })),
        spread: options.spread ?? false,
        source: "api",
      }),
    );
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => assert.fail("expected a refusal"),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof ApiError, String(error));
    return error;
  };
  const freshAccount = async (plan = "pro") => dmSenderAccount(harness.services.sql, people.open(1)[0], plan);
  const markSent = (accountId: string, at: number) =>
    harness.services.sql`update dm_messages set status = 'sent', sent_at = ${new Date(at)} where account_id = ${accountId} and status = 'pending'`;

  test("the month: full at 23:59:59 on its last day (429 scope month, Retry-After to midnight), free at 00:00", async () => {
    const account = await freshAccount();
    const lastSecond = Date.parse("2031-01-31T23:59:59Z");
    // Ten sent over the month's last days (outside the rolling day of the check).
    for (let day = 0; day < 5; day++) {
      await enqueue(account, lastSecond - (5 - day) * 2 * DAY, people.open(2));
      await markSent(account, lastSecond - (5 - day) * 2 * DAY);
    }
    const error = await refusal(enqueue(account, lastSecond, people.open(1)));
    assert.equal(error.code, "dm_limit_reached");
    assert.equal(error.extra.scope, "month");
    assert.equal(error.headers["Retry-After"], "1");
    const next = await enqueue(account, lastSecond + 1000, people.open(1));
    assert.equal(next.counts.queued_now, 1);
  });

  test("the rolling day: full until 24 h after the oldest send, not a millisecond longer", async () => {
    const account = await freshAccount();
    const t0 = Date.parse("2031-03-10T10:00:00Z");
    await enqueue(account, t0, people.open(4));
    await markSent(account, t0);
    const error = await refusal(enqueue(account, t0 + DAY - 1, people.open(1)));
    assert.equal(error.code, "dm_limit_reached");
    assert.equal(error.extra.scope, "day");
    assert.equal(error.headers["Retry-After"], "1");
    assert.match(error.message, /spread/);
    const later = await enqueue(account, t0 + DAY, people.open(4));
    assert.deepEqual(later.counts, { queued: 4, queued_now: 4, scheduled: 0, skipped: 0, duplicates: 0 });
  });

  test("spread places the overflow at the start of each following 24 hours with room", async () => {
    const account = await freshAccount();
    const t0 = Date.parse("2031-04-01T08:00:00Z");
    const created = await enqueue(account, t0, people.open(10), { spread: true });
    assert.deepEqual(created.counts, { queued: 10, queued_now: 4, scheduled: 6, skipped: 0, duplicates: 0 });
    const rows = await harness.services.sql<{ send_after: Date; count: number }[]>`
      select send_after, count(*)::int as count from dm_messages where campaign_id = ${created.id} group by send_after order by send_after`;
    assert.deepEqual(
      rows.map((row) => [row.send_after.toISOString(), row.count]),
      [
        [new Date(t0).toISOString(), 4],
        [new Date(t0 + DAY).toISOString(), 4],
        [new Date(t0 + 2 * DAY).toISOString(), 2],
      ],
    );
    // Today is full: a second spread campaign goes wholly to the coming days.
    const second = await enqueue(account, t0 + 60_000, people.open(3), { spread: true, allowance: { ...allowance, monthlyMax: 20 } });
    assert.deepEqual(second.counts, { queued: 3, queued_now: 0, scheduled: 3, skipped: 0, duplicates: 0 });
  });

  test("without scheduling, spread is ignored and the overflow is skipped; nothing fitting today is 429 scope day", async () => {
    const account = await freshAccount("basic");
    const noScheduling = { ...allowance, schedulingEnabled: false };
    const t0 = Date.parse("2031-05-05T12:00:00Z");
    const created = await enqueue(account, t0, people.open(6), { spread: true, allowance: noScheduling });
    assert.deepEqual(created.counts, { queued: 4, queued_now: 4, scheduled: 0, skipped: 2, duplicates: 0 });
    const skipped = await harness.services.sql<{ reason: string }[]>`
      select reason from dm_messages where campaign_id = ${created.id} and status = 'skipped'`;
    assert.equal(skipped.length, 2);
    assert.match(skipped[0].reason, /cannot schedule/);
    const error = await refusal(enqueue(account, t0 + 1000, people.open(1), { allowance: noScheduling }));
    assert.equal(error.extra.scope, "day");
  });
});

describe("DM tokens", () => {
  test("[name], [first] and [handle] fill case-insensitively, falling back to each other, then to there", () => {
    assert.equal(fillTokens("Hi [first] ([NAME], [handle])", { name: "Grace Brewster Hopper", handle: "@grace" }), "Hi Grace (Grace Brewster Hopper, @grace)");
    assert.equal(fillTokens("Hi [first], [handle]", { name: null, handle: "ada" }), "Hi @ada, @ada");
    assert.equal(fillTokens("Hi [handle]", { name: "Ada", handle: null }), "Hi Ada");
    assert.equal(fillTokens("Hi [first]! [unknown]", { name: null, handle: null }), "Hi there! [unknown]");
  });
});
