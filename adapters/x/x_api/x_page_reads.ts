/** Reading one page of posts or users from an X endpoint, as a port page. */
import type { NetworkPost, NetworkUser, Page } from "../../../core/network/network_records.ts";
import type { XApiContext } from "./x_api_context.ts";
import type { XRequest } from "./x_api_client.ts";
import { TWEET_PARAMS, USER_PARAMS } from "./x_api_fields.ts";
import type { XTweet, XUser } from "./x_api_types.ts";
import { pageOf, type PagePlan } from "./x_paging.ts";
import { postFromX } from "./x_post_record.ts";
import { userFromX } from "./x_user_record.ts";

/** Recent search takes its token as `next_token`; every other list as `pagination_token`. */
export type TokenParam = "pagination_token" | "next_token";

/** A page of posts; `keep` filters what X cannot (a short page, never a wrong one). */
export async function readPostPage(
  ctx: XApiContext,
  request: XRequest,
  plan: PagePlan,
  tokenParam: TokenParam = "pagination_token",
  keep: (post: NetworkPost) => boolean = () => true,
): Promise<Page<NetworkPost>> {
  const query = { ...TWEET_PARAMS, ...request.query, max_results: plan.maxResults, [tokenParam]: plan.token };
  const body = await ctx.client.list<XTweet>({ ...request, query });
  return pageOf(plan, body.data, body.meta?.next_token, (tweet) => {
    const post = postFromX(tweet, body.includes);
    return keep(post) ? post : undefined;
  });
}

/** A page of users. */
export async function readUserPage(ctx: XApiContext, request: XRequest, plan: PagePlan): Promise<Page<NetworkUser>> {
  const query = { ...USER_PARAMS, ...request.query, max_results: plan.maxResults, pagination_token: plan.token };
  const body = await ctx.client.list<XUser>({ ...request, query });
  return pageOf(plan, body.data, body.meta?.next_token, userFromX);
}
