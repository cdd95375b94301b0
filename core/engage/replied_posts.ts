/**
 * Which posts the account already replied to (supplement: `include_replied`): read from the
 * account's own recent replies on the network, the newest page of them. An account the
 * network does not know has replied to nothing.
 */
import type { Context } from "../context.ts";
import { callNetwork } from "../network/call_network.ts";
import { NetworkNotFoundError } from "../network/network_errors.ts";

/** Replies of the account read per check (the network's largest page). */
const REPLIES_READ = 100;

/** Ids of the posts `accountId` answered recently. */
export async function repliedPostIds(ctx: Context, accountId: string): Promise<Set<string>> {
  const page = await callNetwork(async () => {
    try {
      return await ctx.services.network.timeline(accountId, { limit: REPLIES_READ, excludeReposts: true });
    } catch (error) {
      if (error instanceof NetworkNotFoundError) return { items: [] };
      throw error;
    }
  });
  return new Set(page.items.flatMap((post) => (post.replyToId ? [post.replyToId] : [])));
}
