/**
 * The demo world's DM campaign (`dm.campaign`; docs/areas.md "DM campaigns and auto DM"): A's campaign "Thanks for
 * following" to five followers who accept DMs, queued with the API's own create, two sent
 * through the sender, one pending (due now: a serving process's jobs send it) and two
 * placed a day later, as `spread` places overflow. Re-runs find it by its message and leave
 * it as it is. With the network down (`THREADLINE_FAULTS=x`) nothing is sent yet.
 */
import type { Services } from "../context.ts";
import { enqueueCampaign } from "../dm/create_campaign.ts";
import { dmAllowanceOf } from "../dm/dm_limits.ts";
import { DAY_MS } from "../time/durations.ts";
import { sendDueMessages } from "../dm/dm_sender.ts";
import { NetworkError } from "../network/network_errors.ts";
import { demoCampaignWithMessage, placePendingLater } from "./demo_dm_queries.ts";

const MESSAGE = "Thanks for following, [first]! Anything you would like me to write about next?";

/** Ensures A's demo campaign; answers `{ campaign }` (its id), or `{}` when the plan has no DMs. */
export async function ensureDemoDm(services: Services, accountId: string): Promise<{ campaign?: number }> {
  const { sql, clock, network } = services;
  const existing = await demoCampaignWithMessage(sql, accountId, MESSAGE);
  if (existing !== undefined) return { campaign: existing };
  const allowance = await dmAllowanceOf(sql, accountId);
  if (!allowance) return {};
  const followers = await network.followers(accountId, { limit: 100 }).then(
    (page) => page.items.filter((user) => user.canDm && user.id !== accountId).slice(0, 5),
    (error: unknown) => {
      if (error instanceof NetworkError) return [];
      throw error;
    },
  );
  const now = clock.now();
  const recipients = followers.map((user) => ({ x_user_id: user.id, handle: user.username, name: user.name }));
  const { id } = await sql.begin((tx) => enqueueCampaign(tx, { accountId, allowance, now, message: MESSAGE, recipients, spread: false, source: "api" }));
  await placePendingLater(sql, id, 2, new Date(now + DAY_MS));
  await sendDueMessages({ sql, network, clock }, accountId, { maxMessages: 2 }).catch((error: unknown) => {
    if (!(error instanceof NetworkError)) throw error;
  });
  return { campaign: id };
}
