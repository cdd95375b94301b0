/** Shared steps of the Engage suites: counting units spent and clearing an account's feeds. */
import assert from "node:assert/strict";
import type { Harness, Transport } from "./harness.ts";
import type { BucketName } from "../../core/plans/plans.ts";

/** Units of `bucket` the owner of `mainAccountId` spent today. */
export async function usedToday(harness: Harness, bucket: BucketName, mainAccountId = harness.world.accounts.main): Promise<number> {
  const { requestCounters, clock } = harness.services;
  const check = { key: `rl:${mainAccountId}:${bucket}:day`, limit: 1_000_000_000, windowSeconds: 86_400, cost: 0 };
  return (await requestCounters.consume([check], clock.now())).windows[0].used;
}

/** Deletes every feed of `accountId` (each suite case starts from none). */
export async function clearFeeds(transport: Transport, key: string, accountId: string): Promise<void> {
  const list = await transport.request("GET", `/v1/engage/feeds?account_id=${accountId}`, { key });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  for (const feed of list.body.data) {
    const gone = await transport.request("DELETE", `/v1/engage/feeds/${feed.id}`, { key });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
  }
}
