/**
 * Per-plan cover caps (docs/choices.md, article covers; supplement: Articles, cover: "daily/monthly cover
 * caps `429` with `remaining_day`/`remaining_month`"): a basic user (5 a UTC day, 30 a UTC
 * month) is refused with `429 ai_action_limited`, `cap`, both remainders, `reset_at` and
 * `Retry-After`, and keeps its credits; failed generations do not count.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import type { Sql } from "../core/db/sql.ts";
import { adminApi } from "../core/admin/admin_api.ts";
import { createContextInner } from "../core/context.ts";
import { creditState, grantCredits } from "../core/credits/credits.ts";
import type { CreditOwner } from "../core/request_state/credit_state.ts";
import { planById } from "../core/plans/plans.ts";
import { COVER_CAPS } from "../core/covers/cover_caps.ts";

/** The 202 form of a cover request (RFC 7240); without it the request waits for the cover. */
const ASYNC = { Prefer: "respond-async" };

let harness: Harness;
let sql: Sql;

before(async () => {
  harness = await startHarness();
  sql = harness.services.sql;
});
after(() => harness.close());

/** A fresh basic-plan user with a write key, plenty of credits and one titled article. */
async function basicUser(name: string) {
  const admin = adminApi(harness.services);
  const { userId, mainAccountId } = await admin.createUser({ name, plan: "basic", account: { username: name } });
  const { key } = await admin.createKey({ userId, name: "caps" });
  const [user] = await sql<{ billing_anchor: Date }[]>`select billing_anchor from users where id = ${userId}`;
  const owner: CreditOwner = { ownerId: mainAccountId, plan: planById("basic"), billingAnchor: user.billing_anchor };
  await grantCredits(createContextInner({ services: harness.services }), owner, { amount: 5_000, reference: `test:caps:${name}` });
  const [article] = await sql<{ id: number }[]>`insert into articles (account_id, title) values (${mainAccountId}, 'Caps') returning id`;
  return { key, owner, accountId: mainAccountId, articleId: String(article.id) };
}

/** Earlier generations of the owner (not tied to an article), created at `at`. */
async function pastGenerations(accountId: string, count: number, at: Date, status = "done"): Promise<void> {
  for (let i = 0; i < count; i++) {
    await sql`
      insert into cover_generations (article_id, account_id, workspace_id, status, attach, title, prompt, base_url,
                                     credit_owner_id, credit_reference, credits_reserved, created_at)
      values (null, ${accountId}, ${accountId}, ${status}, false, 'past', 'past', 'http://x.test/v1', ${accountId}, ${`past:${i}:${at.getTime()}`}, 25, ${at})`;
  }
}

function startOfUtcDay(ms: number): Date {
  const now = new Date(ms);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

test("basic's caps are 5 a day and 30 a month", () => {
  assert.deepEqual(COVER_CAPS.basic, { day: 5, month: 30 });
});

test("the daily cap: 429 ai_action_limited with remaining_day 0, remaining_month, reset at the next UTC midnight, credits kept", async () => {
  const user = await basicUser("capsday");
  const now = harness.services.clock.now();
  await pastGenerations(user.accountId, 5, new Date(now - 1000));
  await pastGenerations(user.accountId, 3, new Date(now - 2000), "failed");
  const ctx = createContextInner({ services: harness.services });
  const spentBefore = (await creditState(ctx, user.owner)).spent;
  for (const transport of transports(harness)) {
    const answer = await transport.request("POST", `/v1/articles/${user.articleId}/cover`, { key: user.key, body: {}, headers: ASYNC });
    assert.equal(answer.status, 429, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, "ai_action_limited");
    assert.equal(answer.body.error.scope, "account");
    assert.equal(answer.body.error.cap, "day");
    assert.equal(answer.body.error.remaining_day, 0);
    // 30 - 5: the 3 failed generations were refunded and do not count.
    assert.equal(answer.body.error.remaining_month, 25);
    assert.equal(answer.body.error.reset_at, startOfUtcDay(now).getTime() / 1000 + 86_400);
    assert.equal(answer.headers.get("retry-after"), String(answer.body.error.retry_after));
  }
  assert.equal((await creditState(ctx, user.owner)).spent, spentBefore, "a refused cover keeps no credits");
});

test("the monthly cap: 429 ai_action_limited with cap month while the day still has room", async (t) => {
  const now = harness.services.clock.now();
  const dayStart = startOfUtcDay(now);
  if (dayStart.getUTCDate() === 1) {
    t.skip("today is the 1st of the month (UTC): no earlier day of this month to fill");
    return;
  }
  const user = await basicUser("capsmonth");
  await pastGenerations(user.accountId, 30, new Date(dayStart.getTime() - 1000));
  const answer = await transports(harness)[1].request("POST", `/v1/articles/${user.articleId}/cover`, { key: user.key, body: {}, headers: ASYNC });
  assert.equal(answer.status, 429, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, "ai_action_limited");
  assert.equal(answer.body.error.cap, "month");
  assert.equal(answer.body.error.remaining_day, 5);
  assert.equal(answer.body.error.remaining_month, 0);
  const next = new Date(Date.UTC(dayStart.getUTCFullYear(), dayStart.getUTCMonth() + 1, 1));
  assert.equal(answer.body.error.reset_at, next.getTime() / 1000);
});

test("under the caps a cover is accepted (202), and last month's covers do not count", async () => {
  const user = await basicUser("capsok");
  const dayStart = startOfUtcDay(harness.services.clock.now());
  const lastMonth = new Date(Date.UTC(dayStart.getUTCFullYear(), dayStart.getUTCMonth() - 1, 15));
  await pastGenerations(user.accountId, 40, lastMonth);
  await pastGenerations(user.accountId, 4, new Date(harness.services.clock.now() - 1000));
  const answer = await transports(harness)[0].request("POST", `/v1/articles/${user.articleId}/cover`, { key: user.key, body: {}, headers: ASYNC });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
});
