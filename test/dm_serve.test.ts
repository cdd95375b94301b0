/**
 * End to end through real `threadline serve` processes and their job runners (docs/areas.md "DM campaigns and auto DM":
 * a campaign created over REST is sent exactly once within the limits by a
 * real `serve` process's jobs): a campaign queued over REST goes out through the
 * `send_dms` job, every message `sent` once, and reads back on the campaign and the queue.
 * On PostgreSQL two server processes run their job runners side by side on one queue (a
 * second campaign is created on the other server), and every person still gets one DM.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { pollUntil } from "./support/child_node.ts";
import type { TestDatabase } from "./support/test_database.ts";
import { postgresMode, startServedWorld, type ServedWorld } from "./support/served_world.ts";
import { createPopulation } from "../adapters/x/simulated/population.ts";
import { DEFAULT_NETWORK_SEED } from "../adapters/x/open_network.ts";
import { DEFAULT_WORLD_USERS } from "../adapters/x/simulated/simulated_network.ts";

/** People of the default world who accept DMs from anyone, past the demo's anchors. */
function openPeople(count: number, exclude: ReadonlySet<string>): string[] {
  const pop = createPopulation(DEFAULT_NETWORK_SEED, DEFAULT_WORLD_USERS);
  const ids: string[] = [];
  for (let i = pop.anchorCount + 200; ids.length < count; i++) {
    if (pop.canDm[i] === 1 && pop.isProtected[i] === 0 && !exclude.has(pop.ids[i])) ids.push(pop.ids[i]);
  }
  return ids;
}

describe(`a DM campaign through the real server and jobs (${postgresMode ? "two processes on PostgreSQL + Redis" : "embedded"})`, () => {
  let served: ServedWorld;
  let servers: ServedWorld["servers"];
  let world: any;
  let database: TestDatabase | undefined;

  before(async () => {
    served = await startServedWorld("dm-e2e");
    ({ servers, world, database } = served);
  });

  after(() => served?.close());

  test("campaigns created over REST are sent exactly once by the servers' jobs", { timeout: 120_000 }, async () => {
    const headers = { Authorization: `Bearer ${world.keys.write}`, "Content-Type": "application/json" };
    // Not the demo campaign's people (they would count as duplicates).
    const demo = (await (await fetch(`${servers[0].url}/v1/dm/campaigns/${world.dm.campaign}`, { headers })).json()) as any;
    const recipients = openPeople(24, new Set(demo.data.messages.map((message: any) => message.x_user_id)));
    const halves = [recipients.slice(0, 12), recipients.slice(12)];
    const ids: number[] = [];
    for (const [i, half] of halves.entries()) {
      const server = servers[i % servers.length];
      const body = { message: "Thanks for reading, [first]", recipients: half.map((x_user_id) => ({ x_user_id })) };
      const answer = await fetch(`${server.url}/v1/dm/campaigns`, { method: "POST", headers, body: JSON.stringify(body) });
      const created = (await answer.json()) as any;
      assert.equal(answer.status, 201, JSON.stringify(created));
      assert.equal(created.data.queued_now, 12);
      ids.push(created.data.id);
    }
    for (const id of ids) {
      const campaign = await pollUntil(
        `campaign ${id} to be sent`,
        async () => {
          const answer = (await (await fetch(`${servers[servers.length - 1].url}/v1/dm/campaigns/${id}`, { headers })).json()) as any;
          return answer.data.counts.sent === 12 ? answer.data : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      assert.deepEqual(campaign.counts, { pending: 0, sending: 0, sent: 12, failed: 0, skipped: 0, total: 12 });
      assert.ok(campaign.messages.every((message: any) => /^Thanks for reading, \S+$/.test(message.text) && message.x_dm_id));
    }
    const queue = (await (await fetch(`${servers[0].url}/v1/dm/queue?status=sent&limit=200`, { headers })).json()) as any;
    const sentTo = queue.data.filter((message: any) => ids.includes(message.campaign_id)).map((message: any) => message.x_user_id);
    assert.deepEqual(sentTo.sort(), [...recipients].sort());
    if (database) {
      // The network's own record: one DM per person, whichever process sent it.
      const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql<{ recipient_id: string; count: number }[]>`
          select recipient_id, count(*)::int as count from network_dms
           where sender_id = ${world.accounts.main} and recipient_id in ${sql(recipients)} group by recipient_id`;
        assert.equal(rows.length, 24);
        assert.ok(
          rows.every((row) => row.count === 1),
          JSON.stringify(rows),
        );
      } finally {
        await sql.end();
      }
    }
  });
});
