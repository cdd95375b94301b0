/**
 * Webhook fairness (docs/webhooks.md, "Fairness"): a slow receiver does not delay another
 * owner's deliveries (not behind its backlog, not behind its posts in flight), deliveries in
 * flight are capped per endpoint (across runs at once) and per owner, owners take turns in a
 * claim, an endpoint that keeps answering slowly is held to one delivery in flight until
 * it answers quickly again, and one that has proven quick gets a larger cap. Receivers on
 * loopback hold their answers a few hundred milliseconds; the thresholds are set to match.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { peakInFlight, startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";
import { recordEvent } from "../core/events/record_event.ts";
import { fanOutEvents } from "../core/webhooks/deliver_fan_out.ts";
import { deliverDue } from "../core/webhooks/deliver_due.ts";
import { claimDueDeliveries } from "../core/webhooks/deliveries_queries.ts";
import { DEFAULT_DELIVERY_LIMITS } from "../core/webhooks/delivery_limits.ts";
import { webhookById } from "../core/webhooks/webhooks_queries.ts";
import type { DeliveryDeps } from "../core/webhooks/deliver_attempt.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import type { JobRow } from "../core/jobs/jobs_queries.ts";

let harness: Harness;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  harness = await startHarness({ config: { outboundAllowHosts: "127.0.0.1" } });
});
after(async () => {
  await harness.close();
  await receiver.close();
});

let paths = 0;
let holders = 0;

/** The two owners: Ada (the demo world's main user) and Cy (`other_user`). */
const owners = () => ({
  ada: { key: harness.world.keys.write, account: harness.world.accounts.main },
  cy: { key: harness.world.keys.other_user, account: harness.world.accounts.other_user },
});
type Owner = ReturnType<typeof owners>["ada"];

/** An endpoint of `owner` on its own receiver path, deleted after the test. */
async function endpoint(t: { after(fn: () => Promise<unknown>): void }, owner: Owner) {
  const path = `/fair/${++paths}`;
  const [transport] = transports(harness);
  const answer = await transport.request("POST", "/v1/webhooks", { key: owner.key, body: { url: `${receiver.base}${path}` } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  t.after(() => transport.request("DELETE", `/v1/webhooks/${answer.body.data.id}`, { key: owner.key }));
  return { id: answer.body.data.id as number, path };
}

/** Records `count` events (one transaction) on the owner's main account, each of its own object. */
async function record(owner: Owner, count: number, at: Date) {
  await harness.services.sql.begin(async (tx) => {
    for (let n = 0; n < count; n++) {
      const objectId = `${++holders}-${n}`;
      await recordEvent(tx, { accountId: owner.account, type: "post.sent", objectType: "scheduled_post", objectId, data: { id: objectId }, now: at });
    }
  });
}

/** The delivery deps on a manual clock, with the harness's sender. */
function deps(clock = manualClock(Date.now())): DeliveryDeps & { clock: ReturnType<typeof manualClock> } {
  const { sql, webhookSender, secretBox } = harness.services;
  return { sql, clock, webhookSender, secretBox, timeoutMs: 5_000 } as never;
}

/**
 * Runs the delivery loop until `count` posts reached the endpoint's path: on a loaded machine a
 * post can fail before reaching the receiver and its retry comes due later (the manual clock is
 * moved past it), which is not what these tests are about. Past three runs it fails, naming
 * each delivery's state.
 */
async function deliverUntil(d: ReturnType<typeof deps>, limits: Parameters<typeof deliverDue>[1]["limits"], hook: { id: number; path: string }, count: number) {
  for (let run = 0; run < 3 && receiver.on(hook.path).length < count; run++) {
    if (run > 0) d.clock.advance(60_000);
    await deliverDue(d, { holder: `fair-${++holders}`, limits });
  }
  if (receiver.on(hook.path).length < count) {
    const rows = await harness.services.sql`select id, status, attempt, error, locked_until from webhook_deliveries where webhook_id = ${hook.id} order by id`;
    assert.fail(`${receiver.on(hook.path).length} of ${count} posts arrived; the deliveries: ${JSON.stringify(rows)}`);
  }
}

describe("webhook fairness", () => {
  test("a slow endpoint's backlog does not hold back another owner's deliveries", async (t) => {
    const { ada, cy } = owners();
    const slow = await endpoint(t, ada);
    const fast = await endpoint(t, cy);
    // Ada's first five answers take a second; her backlog of 100 is ahead of Cy's 3 in time.
    receiver.behave(slow.path, (_request, n) => ({ status: 200, delayMs: n < 5 ? 1_000 : 0 }));
    const d = deps();
    await record(ada, 100, new Date(d.clock.now()));
    await fanOutEvents(d);
    d.clock.advance(1_000);
    await record(cy, 3, new Date(d.clock.now()));
    await fanOutEvents(d);
    d.clock.advance(1_000);
    const started = Date.now();
    await deliverDue(d, { holder: `fair-${++holders}` });
    const [first] = receiver.on(slow.path);
    const quick = receiver.on(fast.path);
    assert.equal(quick.length, 3);
    for (const got of quick) {
      assert.ok(got.at < first.at + 1_000, `Cy's delivery waited behind Ada's slow answers (arrived ${got.at - started} ms into the run)`);
    }
    assert.equal(receiver.on(slow.path).length, 100, "Ada's backlog is delivered too");
  });

  test("an event committed while a slow receiver holds the job's posts is posted by the same run", async (t) => {
    const { ada, cy } = owners();
    const slow = await endpoint(t, ada);
    const fast = await endpoint(t, cy);
    receiver.behave(slow.path, () => ({ status: 200, delayMs: 1_500 }));
    await record(ada, 1, new Date());
    const { sql, clock, network, webhookSender, secretBox } = harness.services;
    const run = jobHandlers({ sql, clock, network, webhookSender, secretBox }).deliver_webhooks({}, { id: 1, locked_by: "fair-worker" } as JobRow);
    const [held] = await receiver.waitFor(slow.path, 1);
    await record(cy, 1, new Date());
    const [got] = await receiver.waitFor(fast.path, 1, 1_200);
    assert.ok(got.at < held.at + 1_500, "posted while the slow post was still in flight");
    await run;
  });

  test("at most 10 deliveries of one endpoint are in flight at once, across two runs at once", async (t) => {
    const { ada } = owners();
    const hook = await endpoint(t, ada);
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 150 }));
    const d = deps();
    await record(ada, 25, new Date(d.clock.now()));
    await fanOutEvents(d);
    await Promise.all([deliverDue(d, { holder: `fair-${++holders}` }), deliverDue(d, { holder: `fair-${++holders}` })]);
    const got = receiver.on(hook.path);
    assert.equal(got.length, 25);
    assert.equal(DEFAULT_DELIVERY_LIMITS.perEndpoint, 10);
    assert.equal(peakInFlight(got), 10);
  });

  test("an owner's endpoints together hold at most the owner's cap", async (t) => {
    const { ada } = owners();
    const hooks = [await endpoint(t, ada), await endpoint(t, ada), await endpoint(t, ada)];
    for (const hook of hooks) receiver.behave(hook.path, () => ({ status: 200, delayMs: 150 }));
    const d = deps();
    await record(ada, 6, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverDue(d, { holder: `fair-${++holders}`, limits: { perEndpoint: 5, perOwner: 7 } });
    const got = hooks.flatMap((hook) => receiver.on(hook.path));
    assert.equal(got.length, 18);
    assert.equal(peakInFlight(got), 7, "7 of the 15 the endpoints' caps would allow");
    for (const hook of hooks) assert.ok(peakInFlight(receiver.on(hook.path)) <= 5);
  });

  test("owners take turns: every owner's first due delivery is claimed before anyone's second", async (t) => {
    const { ada, cy } = owners();
    await endpoint(t, ada);
    const theirs = await endpoint(t, cy);
    const d = deps();
    await record(ada, 10, new Date(d.clock.now()));
    await fanOutEvents(d);
    d.clock.advance(1_000);
    await record(cy, 1, new Date(d.clock.now()));
    await fanOutEvents(d);
    const lease = { holder: `fair-${++holders}`, leaseSeconds: 60 };
    const claimed = await claimDueDeliveries(harness.services.sql, lease, new Date(d.clock.now()), 2, DEFAULT_DELIVERY_LIMITS);
    assert.equal(claimed.length, 2);
    assert.equal(claimed.filter((row) => row.webhook_id === theirs.id).length, 1, "Cy's one delivery, though Ada's are older");
  });

  test("an endpoint proven quick gets the quick cap, its owner as many, and a failure sets it back to the default", async (t) => {
    const { ada } = owners();
    const hook = await endpoint(t, ada);
    const limits = { perEndpoint: 3, perOwner: 4, quickAfter: 6, quickUnderMs: 5_000, perQuickEndpoint: 8 };
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 150 }));
    const d = deps();
    await record(ada, 6, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverUntil(d, limits, hook, 6);
    assert.equal(peakInFlight(receiver.on(hook.path)), 3, "not proven yet: the default cap");
    await record(ada, 16, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverUntil(d, limits, hook, 22);
    assert.equal(peakInFlight(receiver.on(hook.path).slice(6)), 8, "6 successes in a row: 8 at once, past the owner's cap of 4");
    // One failure ends the run of successes.
    receiver.behave(hook.path, () => ({ status: 500 }));
    await record(ada, 1, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverDue(d, { holder: `fair-${++holders}`, limits });
    assert.equal(receiver.on(hook.path).length, 23);
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 150 }));
    await record(ada, 20, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverDue(d, { holder: `fair-${++holders}`, limits });
    const after = receiver.on(hook.path).slice(23);
    assert.equal(after.length, 20, "the failed delivery waits for its retry");
    assert.equal(peakInFlight(after.slice(0, 6)), 3, "back to the default cap until proven again");
    assert.equal(peakInFlight(after), 8, "quick again after 6 more successes");
  });

  test("an endpoint that keeps answering slowly is held to one delivery in flight, and gets its cap back once it answers quickly", async (t) => {
    const { ada } = owners();
    const hook = await endpoint(t, ada);
    const limits = { perEndpoint: 5, slowAfterMs: 100 };
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 250 }));
    const d = deps();
    await record(ada, 10, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverUntil(d, limits, hook, 10);
    let got = receiver.on(hook.path);
    assert.equal(peakInFlight(got.slice(0, 5)), 5, "5 at first: the endpoint had never been slow");
    assert.ok(peakInFlight(got) <= 5);
    // Its average passes 100 ms during its first answers (the weight is 1/5 per attempt); from
    // then on one at a time.
    assert.equal(peakInFlight(got.slice(-3)), 1, "one at a time once it averages above the 100 ms threshold");
    assert.ok(((await webhookById(harness.services.sql, hook.id))?.latency_avg_ms ?? 0) >= 100);
    // Quick answers bring the average under the threshold again, and with it the cap of 5.
    receiver.behave(hook.path, () => ({ status: 200, delayMs: 30 }));
    await record(ada, 12, new Date(d.clock.now()));
    await fanOutEvents(d);
    await deliverUntil(d, limits, hook, 22);
    got = receiver.on(hook.path).slice(10);
    assert.equal(peakInFlight(got.slice(0, 3)), 1, "still slow for its first quick answers");
    assert.equal(peakInFlight(got), 5, "quick again: 5 at once");
  });
});
