/**
 * DMs with a user-context token: `POST /2/dm_conversations/with/:participant_id/messages`
 * and `GET /2/dm_events`. X answers a send with the event id only, so the DM's time is
 * this process's clock; one-to-one conversations are `<id>-<id>`, which names the
 * recipient of each event (group conversations are not DMs in the port's sense and are
 * left out). X has no client tokens: a token is remembered by this process.
 */
import { NetworkRejectedError } from "../../../core/network/network_errors.ts";
import type { NetworkDm } from "../../../core/network/network_records.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import { DM_EVENT_PARAMS } from "./x_api_fields.ts";
import type { XDmEvent } from "./x_api_types.ts";
import { xId } from "./x_ids.ts";
import { pageOf, planPage } from "./x_paging.ts";
import { isoTime, plainText } from "./x_text.ts";

/** X's bound on a DM's length. */
const MAX_DM_CHARS = 10_000;

/** The port's DMs over X. */
export function xDirectMessages(ctx: XApiContext): Pick<SocialNetwork, "sendDm" | "directMessages"> {
  // Client tokens of this process's DMs (`<sender>:<token>` -> the DM).
  const sentDms = new Map<string, NetworkDm>();
  return {
    async sendDm(input) {
      if (input.senderId === input.recipientId) throw new NetworkRejectedError("invalid", "An account cannot DM itself");
      if (input.text.trim() === "" || [...input.text].length > MAX_DM_CHARS) throw new NetworkRejectedError("invalid", "A DM needs 1 to 10,000 characters");
      const key = input.token === undefined ? undefined : `${input.senderId}:${input.token}`;
      const sent = key === undefined ? undefined : sentDms.get(key);
      if (sent) return sent;
      const actor = await ctx.actorFor(input.senderId);
      const body = await ctx.client.data<{ dm_event_id: string; dm_conversation_id?: string }>({
        method: "POST",
        path: `/2/dm_conversations/with/${xId(input.recipientId, "dm")}/messages`,
        body: { text: input.text },
        actingAs: actor,
        subject: { resource: "dm", ref: input.recipientId },
      });
      const dm: NetworkDm = {
        id: body.data.dm_event_id,
        senderId: input.senderId,
        recipientId: input.recipientId,
        text: input.text,
        createdAt: isoTime(undefined, ctx.clock.now()),
      };
      if (key !== undefined) sentDms.set(key, dm);
      return dm;
    },
    async directMessages(userId, page = {}) {
      const actor = await ctx.actorFor(userId);
      const plan = planPage(page, 50, 100, { min: 1, max: 100 });
      const body = await ctx.client.list<XDmEvent>({
        path: "/2/dm_events",
        query: { ...DM_EVENT_PARAMS, max_results: plan.maxResults, pagination_token: plan.token },
        actingAs: actor,
        subject: { resource: "dm", ref: userId },
      });
      return pageOf(plan, body.data, body.meta?.next_token, (event) => dmOf(event, ctx.clock.now()));
    },
  };
}

function dmOf(event: XDmEvent, nowMs: number): NetworkDm | undefined {
  const pair = /^(\d+)-(\d+)$/.exec(event.dm_conversation_id ?? "");
  if ((event.event_type ?? "MessageCreate") !== "MessageCreate" || !pair || !event.sender_id) return undefined;
  const recipientId = pair[1] === event.sender_id ? pair[2] : pair[1];
  return { id: event.id, senderId: event.sender_id, recipientId, text: plainText(event.text ?? ""), createdAt: isoTime(event.created_at, nowMs) };
}
