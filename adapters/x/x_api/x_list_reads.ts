/**
 * Lists: `GET /2/lists/:id`, `/2/lists/:id/members`, `/2/lists/:id/tweets` and
 * `/2/users/:id/owned_lists`. X shows a private list only to its owner: under app-only
 * auth it answers "Authorization Error" (NetworkPrivateError, which the API answers as
 * `404 x_list_not_found`); a list that does come back marked private is refused the
 * same way, as the port asks. X pages members by 100 at most.
 */
import { NetworkPrivateError } from "../../../core/network/network_errors.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import { LIST_PARAMS } from "./x_api_fields.ts";
import type { XList } from "./x_api_types.ts";
import { xId } from "./x_ids.ts";
import { listFromX } from "./x_list_record.ts";
import { readPostPage, readUserPage } from "./x_page_reads.ts";
import { pageOf, planPage } from "./x_paging.ts";

/** The port's list reads over X. */
export function xListReads(ctx: XApiContext): Pick<SocialNetwork, "listById" | "listMembers" | "listPosts" | "ownedLists"> {
  const subject = (listId: string) => ({ resource: "list" as const, ref: listId });
  return {
    async listById(listId) {
      const body = await ctx.client.data<XList>({ path: `/2/lists/${xId(listId, "list")}`, query: LIST_PARAMS, subject: subject(listId) });
      const list = listFromX(body.data);
      if (list.private) throw new NetworkPrivateError("list", listId);
      return list;
    },
    listMembers: async (listId, page = {}) =>
      readUserPage(ctx, { path: `/2/lists/${xId(listId, "list")}/members`, subject: subject(listId) }, planPage(page, 100, 1000, { min: 1, max: 100 })),
    listPosts: async (listId, page = {}) =>
      readPostPage(ctx, { path: `/2/lists/${xId(listId, "list")}/tweets`, subject: subject(listId) }, planPage(page, 20, 100, { min: 1, max: 100 })),
    async ownedLists(userId, page = {}) {
      const plan = planPage(page, 100, 100, { min: 1, max: 100 });
      const body = await ctx.client.list<XList>({
        path: `/2/users/${xId(userId, "user")}/owned_lists`,
        query: { ...LIST_PARAMS, max_results: plan.maxResults, pagination_token: plan.token },
        subject: { resource: "user", ref: userId },
      });
      return pageOf(plan, body.data, body.meta?.next_token, listFromX);
    },
  };
}
