/**
 * The DM sender (docs/areas.md "DM campaigns and auto DM"): due messages go out through the network port once each,
 * tokens filled at send time, within the rolling 24-hour allowance; a permanent refusal is
 * `failed` with its unit back; an unknown outcome is reconciled before any retry (a crash
 * after the DM landed, a timeout); a lost authorisation pauses the account; concurrent
 * senders and a killed sender process (PostgreSQL) never send a message twice; the X API DM
 * endpoint against the fake X server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { dmPeople, dmSenderAccount, messagedPeople } from "./support/dm_people.ts";
import { manualClock } from "./support/manual_clock.ts";
import { childEnv, pollUntil, startNode } from "./support/child_node.ts";
import { startFakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { enqueueCampaign } from "../core/dm/create_campaign.ts";
import { type DmSendDeps, sendDueMessages } from "../core/dm/dm_sender.ts";
import { dmAllowanceOf } from "../core/dm/dm_limits.ts";
import { claimMessage, recordSendingText } from "../core/dm/dm_send_queries.ts";
import { NetworkTimeoutError, NetworkUpstreamError } from "../core/network/network_errors.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { newLease } from "../core/leases/lease.ts";

const postgresOnly = process.env.DATABASE_URL
  ? false
  : "needs DATABASE_URL: embedded PGlite in memory belongs to one process, so a second process cannot share it";

let harness: Harness;
let people: ReturnType<typeof dmPeople>;
const sim = () => harness.services.network as SimulatedNetwork;
const sql = () => harness.services.sql;

before(async () => {
  harness = await startHarness();
  people = dmPeople(sim(), await messagedPeople(sql()));
});
after(() => harness.close());

/** A fresh sending account (a world person) on `plan`. */
const sender = (plan = "pro") => dmSenderAccount(sql(), people.open(1)[0], plan);

/** Queues `recipients` for `accountId` at the clock's now. */
async function queue(
  accountId: string,
  recipients: { x_user_id: string; name?: string; handle?: string; message?: string }[],
  now = Date.now(),
  message = "Hello [first]",
) {
  const allowance = (await dmAllowanceOf(sql(), accountId))!;
  return sql().begin((tx) => enqueueCampaign(tx, { accountId, allowance, now, message, recipients, spread: false, source: "api" }));
}

const deps = (network: SocialNetwork = sim(), clock = manualClock(Date.now())): DmSendDeps => ({ sql: sql(), network, clock });

/** DMs on the network from `accountId` to each of `recipients`, counted per recipient. */
async function delivered(accountId: string, recipients: string[]): Promise<number[]> {
  const dms = (await sim().directMessages(accountId, { limit: 100 })).items.filter((dm) => dm.senderId === accountId);
  return recipients.map((id) => dms.filter((dm) => dm.recipientId === id).length);
}

const statuses = async (campaignId: number) =>
  await sql()<{ recipient_id: string; status: string; reason: string | null; sent_text: string | null }[]>`
    select recipient_id, status, reason, sent_text from dm_messages where campaign_id = ${campaignId} order by id`;

describe("the DM sender", () => {
  test("sends each due message once, tokens filled at send time, each outcome committed", async () => {
    const account = await sender();
    const [a, b] = people.open(2);
    const profile = people.profile(b);
    const campaign = await queue(account, [
      { x_user_id: a, name: "Grace Hopper" },
      { x_user_id: b, message: "Hi [name] ([handle])" },
    ]);
    const result = await sendDueMessages(deps(), account);
    assert.deepEqual({ sent: result.sent, failed: result.failed, stop: result.stop }, { sent: 2, failed: 0, stop: "idle" });
    const rows = await statuses(campaign.id);
    assert.deepEqual(
      rows.map((row) => [row.status, row.sent_text]),
      [
        ["sent", "Hello Grace"],
        ["sent", `Hi ${profile.name} (@${profile.handle})`],
      ],
    );
    assert.deepEqual(await delivered(account, [a, b]), [1, 1]);
    // Nothing is due any more: a second run sends nothing.
    assert.equal((await sendDueMessages(deps(), account)).sent, 0);
    assert.deepEqual(await delivered(account, [a, b]), [1, 1]);
  });

  test("paces within the rolling 24 hours: stops when full, resumes when the oldest send leaves the window", async () => {
    const account = await sender("basic");
    const clock = manualClock(Date.now());
    const daily = (await dmAllowanceOf(sql(), account))!.dailyBulkMax;
    // The day is two short of full: 48 sent an hour ago (by an earlier campaign).
    const earlier = await queue(
      account,
      people.open(daily - 2).map((x_user_id) => ({ x_user_id })),
      clock.now() - 3_600_000,
    );
    await sql()`update dm_messages set status = 'sent', sent_at = ${new Date(clock.now() - 3_600_000)} where campaign_id = ${earlier.id}`;
    // Queued over the allowance by hand (the create would refuse): the sender is the last word.
    const recipients = people.open(3);
    const campaign = await queue(
      account,
      recipients.slice(0, 2).map((x_user_id) => ({ x_user_id })),
      clock.now(),
    );
    await sql()`
      insert into dm_messages (campaign_id, account_id, recipient_id, message, status, send_after, month_start)
      select campaign_id, account_id, ${recipients[2]}, message, 'pending', send_after, month_start from dm_messages where campaign_id = ${campaign.id} limit 1`;
    const first = await sendDueMessages(deps(sim(), clock), account);
    assert.equal(first.sent, 2);
    assert.equal(first.stop, "day_full");
    assert.equal(first.nextAt?.getTime(), clock.now() - 3_600_000 + 86_400_000);
    clock.set(first.nextAt!.getTime() - 1);
    assert.equal((await sendDueMessages(deps(sim(), clock), account)).sent, 0, "still full a millisecond before");
    clock.set(first.nextAt!.getTime());
    const second = await sendDueMessages(deps(sim(), clock), account);
    assert.equal(second.sent, 1);
    assert.deepEqual(await delivered(account, recipients), [1, 1, 1]);
  });

  test("a person who does not accept DMs ends failed with the reason, and the month's unit comes back", async () => {
    const account = await sender();
    const closed = people.closed(account);
    const campaign = await queue(account, [{ x_user_id: closed }]);
    const committed = async () =>
      (
        await sql()<
          { count: number }[]
        >`select count(*)::int as count from dm_messages where account_id = ${account} and status in ('pending', 'sending', 'sent')`
      )[0].count;
    assert.equal(await committed(), 1);
    const result = await sendDueMessages(deps(), account);
    assert.equal(result.failed, 1);
    const [row] = await statuses(campaign.id);
    assert.equal(row.status, "failed");
    assert.match(row.reason!, /does not accept DMs/);
    assert.equal(await committed(), 0);
  });

  test("a message left sending whose DM landed (a crash after the send) is reconciled, not sent again", async () => {
    const account = await sender();
    const [landed, lost] = people.open(2);
    const campaign = await queue(account, [{ x_user_id: landed }, { x_user_id: lost }]);
    // A holder claims both, records their text, sends only the first, and dies.
    const lease = newLease(1);
    for (const recipient of [landed, lost]) {
      const row = (await claimMessage(sql(), { accountId: account, now: new Date(), lease, fresh: true }))!;
      const text = `Hello ${recipient}`;
      await recordSendingText(sql(), { id: row.id, lease }, text);
      if (recipient === landed) await sim().sendDm({ senderId: account, recipientId: recipient, text });
    }
    await sql()`update dm_messages set publish_claimed_until = now() - interval '1 second' where campaign_id = ${campaign.id}`;
    const result = await sendDueMessages(deps(), account);
    assert.deepEqual({ sent: result.sent, reconciled: result.reconciled }, { sent: 1, reconciled: 1 });
    assert.deepEqual(await delivered(account, [landed, lost]), [1, 1]);
    assert.deepEqual(
      (await statuses(campaign.id)).map((row) => row.status),
      ["sent", "sent"],
    );
  });

  test("a send that timed out after landing stays sending, and the retry finds it instead of sending twice", async () => {
    const account = await sender();
    const [person] = people.open(1);
    const campaign = await queue(account, [{ x_user_id: person }]);
    const timingOut: SocialNetwork = {
      ...sim(),
      async sendDm(input) {
        await sim().sendDm({ ...input, token: undefined });
        throw new NetworkTimeoutError();
      },
    };
    await assert.rejects(sendDueMessages(deps(timingOut), account, { leaseSeconds: 1 }), NetworkTimeoutError);
    assert.equal((await statuses(campaign.id))[0].status, "sending");
    // The holder let go of its lease: the next run reconciles at once.
    const result = await sendDueMessages(deps(), account);
    assert.deepEqual({ sent: result.sent, reconciled: result.reconciled }, { sent: 0, reconciled: 1 });
    assert.deepEqual(await delivered(account, [person]), [1]);
  });

  test("a lost authorisation pauses the account with its messages kept; a later probe that works clears it", async () => {
    const account = await sender();
    const recipients = people.open(2);
    const campaign = await queue(
      account,
      recipients.map((x_user_id) => ({ x_user_id })),
    );
    const refused: SocialNetwork = {
      ...sim(),
      async sendDm() {
        throw new NetworkUpstreamError("X refused the credentials (HTTP 401)", 401);
      },
    };
    const clock = manualClock(Date.now());
    assert.equal((await sendDueMessages(deps(refused, clock), account)).stop, "reauth");
    assert.deepEqual(
      (await statuses(campaign.id)).map((row) => row.status),
      ["pending", "pending"],
    );
    const [state] = await sql()<{ reauth_required_at: Date | null }[]>`select reauth_required_at from dm_account_states where account_id = ${account}`;
    assert.ok(state.reauth_required_at);
    await assert.rejects(queue(account, [{ x_user_id: people.open(1)[0] }]), (error: any) => error.code === "reauth_required");
    // Within the pause nothing is tried; after it, one message probes and the rest follow.
    assert.equal((await sendDueMessages(deps(sim(), clock), account)).stop, "reauth");
    clock.advance(16 * 60_000);
    const result = await sendDueMessages(deps(sim(), clock), account);
    assert.equal(result.sent, 2);
    const [cleared] = await sql()<{ reauth_required_at: Date | null }[]>`select reauth_required_at from dm_account_states where account_id = ${account}`;
    assert.equal(cleared.reauth_required_at, null);
  });

  test("several senders on one queue send every message exactly once", async () => {
    const account = await sender();
    const recipients = people.open(24);
    await queue(
      account,
      recipients.map((x_user_id) => ({ x_user_id })),
    );
    const results = await Promise.all(Array.from({ length: 4 }, () => sendDueMessages(deps(), account)));
    assert.equal(
      results.reduce((sum, result) => sum + result.sent, 0),
      24,
    );
    assert.deepEqual(await delivered(account, recipients), new Array(24).fill(1));
  });

  test("a sender killed between two messages, then restarted, sends every message exactly once", { skip: postgresOnly }, async () => {
    const account = await sender();
    const recipients = people.open(5);
    const campaign = await queue(
      account,
      recipients.map((x_user_id) => ({ x_user_id })),
    );
    const child = startNode(
      [
        "--import",
        "tsx",
        "test/support/dm_sender_crash_process.ts",
        "--url",
        harness.database.url!,
        "--account",
        account,
        "--crash-after",
        "2",
        "--lease",
        "1",
      ],
      { env: childEnv() },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The sender process did not die within 60 s\nstdout: ${child.stdout}\nstderr: ${child.stderr}`)), 60_000);
    });
    const exit = await Promise.race([child.exited, late]).finally(() => clearTimeout(timer));
    assert.equal(exit.signal, "SIGKILL", `stdout: ${child.stdout}\nstderr: ${child.stderr}`);
    assert.deepEqual(child.stdout.match(/landed \d/g), ["landed 0", "landed 1", "landed 2"]);
    // The worst moment: the third DM is on the network, its outcome unrecorded.
    assert.deepEqual(
      (await statuses(campaign.id)).map((row) => row.status),
      ["sent", "sent", "sending", "pending", "pending"],
    );
    await pollUntil(
      "the dead sender's lease to pass",
      async () => {
        const [row] = await sql()<{ passed: boolean }[]>`
          select bool_and(publish_claimed_until < now()) as passed from dm_messages where campaign_id = ${campaign.id} and status = 'sending'`;
        return row.passed || undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    const result = await sendDueMessages(deps(), account);
    assert.deepEqual({ sent: result.sent, reconciled: result.reconciled }, { sent: 2, reconciled: 1 });
    assert.deepEqual(await delivered(account, recipients), [1, 1, 1, 1, 1]);
  });

  test("through the X API DM endpoint (fake X server): sent once, a refusal fails, a 401 pauses the account", async () => {
    const account = await sender();
    const token = "user-token-dm-sender";
    const fake = await startFakeXServer({ network: sim(), userTokens: { [token]: account } });
    try {
      const x = createXApiNetwork({
        baseUrl: fake.url,
        bearerToken: fake.bearerToken,
        userToken: (id) => (id === account ? token : undefined),
        timeoutMs: 5000,
      });
      const [open] = people.open(1);
      const closed = people.closed(account);
      const campaign = await queue(account, [{ x_user_id: open, name: "Ada King" }, { x_user_id: closed }]);
      const result = await sendDueMessages(deps(x), account);
      assert.deepEqual({ sent: result.sent, failed: result.failed }, { sent: 1, failed: 1 });
      const rows = await statuses(campaign.id);
      assert.deepEqual(
        rows.map((row) => [row.status, row.sent_text]),
        [
          ["sent", "Hello Ada"],
          ["failed", `Hello ${people.profile(closed).name.split(/\s+/)[0]}`],
        ],
      );
      assert.ok(fake.requests.some((request) => request.method === "POST" && request.path === `/2/dm_conversations/with/${open}/messages`));
      assert.deepEqual(await delivered(account, [open, closed]), [1, 0]);

      const later = await queue(account, [{ x_user_id: people.open(1)[0] }]);
      fake.script({ path: /^\/2\/dm_conversations\//, kind: "status", status: 401, body: { title: "Unauthorized", status: 401 } });
      assert.equal((await sendDueMessages(deps(x), account)).stop, "reauth");
      assert.equal((await statuses(later.id))[0].status, "pending");
    } finally {
      await fake.close();
    }
  });
});
