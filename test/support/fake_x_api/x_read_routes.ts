/**
 * The read endpoints of the fake X API, answered by the simulated network's port:
 * X's parameters (`max_results` within X's bounds, `pagination_token` / `next_token`,
 * `start_time` / `end_time`, `exclude`) become the port's options, and a recent-search
 * query's operators its SearchOptions (x_search_operators.ts).
 */
import { NetworkPrivateError } from "../../../core/network/network_errors.ts";
import type { NetworkPost, NetworkUser, Page } from "../../../core/network/network_records.ts";
import { lookupProblem, type XAnswer } from "./x_problems.ts";
import { batchParam, maxResults, ok, timeParam, type Route, type RouteContext } from "./x_route.ts";
import { searchRequest } from "./x_search_operators.ts";
import { fieldsOf, tweetsBody, xList, xUser } from "./x_shapes.ts";

const DAY = 86_400_000;

/** The GET routes. */
export const READ_ROUTES: Route[] = [
  { method: "GET", pattern: /^\/2\/users\/me$/, userContext: true, handle: async (c) => userAnswer(c, await c.network.userById(c.userId!)) },
  {
    method: "GET",
    pattern: /^\/2\/users\/by\/username\/([^/]+)$/,
    handle: async (c) => userAnswer(c, await c.network.userByUsername(decodeURIComponent(c.params[0]))),
  },
  {
    method: "GET",
    pattern: /^\/2\/users\/by$/,
    async handle(c) {
      const names = batchParam(c.url, "usernames");
      const users = await c.network.usersByUsernames(names);
      const found = new Set(users.map((user) => user.username.toLowerCase()));
      const errors = names.filter((name) => !found.has(name.toLowerCase())).map((name) => lookupProblem("user", name, "usernames"));
      return usersAnswer(c, users, errors);
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/users$/,
    async handle(c) {
      const ids = batchParam(c.url, "ids");
      const users = await c.network.usersByIds(ids);
      const found = new Set(users.map((user) => user.id));
      return usersAnswer(
        c,
        users,
        ids.filter((id) => !found.has(id)).map((id) => lookupProblem("user", id, "ids")),
      );
    },
  },
  { method: "GET", pattern: /^\/2\/users\/(\d+)$/, handle: async (c) => userAnswer(c, await c.network.userById(c.params[0])) },
  {
    method: "GET",
    pattern: /^\/2\/users\/(\d+)\/tweets$/,
    async handle(c) {
      const exclude = fieldsOf(c.url, "exclude");
      const page = await c.network.timeline(c.params[0], {
        ...windowOf(c),
        ...pageOf(c, 5, 100, 10),
        excludeReplies: exclude.has("replies"),
        excludeReposts: exclude.has("retweets"),
      });
      return tweetsPage(c, page);
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/users\/(\d+)\/mentions$/,
    handle: async (c) => tweetsPage(c, await c.network.mentions(c.params[0], { ...windowOf(c), ...pageOf(c, 5, 100, 10) })),
  },
  {
    method: "GET",
    pattern: /^\/2\/users\/(\d+)\/(followers|following)$/,
    async handle(c) {
      const read = c.params[1] === "followers" ? c.network.followers : c.network.following;
      return usersPage(c, await read(c.params[0], pageOf(c, 1, 1000, 100)));
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/users\/(\d+)\/owned_lists$/,
    async handle(c) {
      const page = await c.network.ownedLists(c.params[0], pageOf(c, 1, 100, 100));
      const fields = fieldsOf(c.url, "list.fields");
      return ok({ ...(page.items.length > 0 ? { data: page.items.map((list) => xList(list, fields)) } : {}), meta: metaOf(page) });
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/tweets\/search\/recent$/,
    tokenParam: "next_token",
    async handle(c) {
      const now = c.clock.now();
      const since = timeParam(c.url, "start_time", { earliest: now - 7 * DAY });
      const until = timeParam(c.url, "end_time", { latest: now - 10_000 });
      const search = searchRequest(c.url.searchParams.get("query") ?? "");
      const page = { ...pageOf(c, 10, 100, 10, "next_token") };
      if (search.replyTo === undefined) return tweetsPage(c, await c.network.search({ ...search.options, ...page, since, until }));
      const replies = await c.network.replies(search.replyTo, { ...page, sort: c.url.searchParams.get("sort_order") === "relevancy" ? "relevance" : "recent" });
      // Recent search reaches 7 days back, replies included.
      const inWindow = (post: NetworkPost) =>
        post.createdAt >= (since ?? new Date(now - 7 * DAY).toISOString()) && (until === undefined || post.createdAt < until);
      return tweetsPage(c, { ...replies, items: replies.items.filter(inWindow) });
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/tweets$/,
    async handle(c) {
      const ids = batchParam(c.url, "ids");
      const posts = await c.network.postsByIds(ids);
      const found = new Set(posts.map((post) => post.id));
      const errors = [];
      for (const id of ids.filter((id) => !found.has(id))) {
        const hidden = await c.network.postById(id).then(
          () => false,
          (error: unknown) => error instanceof NetworkPrivateError,
        );
        errors.push(lookupProblem("post", id, "ids", hidden));
      }
      return ok({ ...(posts.length > 0 ? await tweetsBody(c.network, c.url, posts) : {}), ...(errors.length > 0 ? { errors } : {}) });
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/tweets\/(\d+)$/,
    async handle(c) {
      const body = await tweetsBody(c.network, c.url, [await c.network.postById(c.params[0])]);
      return ok({ ...body, data: body.data[0] });
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/tweets\/(\d+)\/quote_tweets$/,
    handle: async (c) => tweetsPage(c, await c.network.quotes(c.params[0], pageOf(c, 10, 100, 10))),
  },
  {
    method: "GET",
    pattern: /^\/2\/tweets\/(\d+)\/(retweeted_by|liking_users)$/,
    async handle(c) {
      const page = pageOf(c, 1, 100, 100);
      if (c.params[1] === "retweeted_by") return usersPage(c, await c.network.reposters(c.params[0], page));
      await c.network.postById(c.params[0]);
      // The simulated world does not list likers: an empty list, as X gives for a post nobody liked.
      return usersPage(c, c.network.likers ? await c.network.likers(c.params[0], page) : { items: [] });
    },
  },
  {
    method: "GET",
    pattern: /^\/2\/lists\/(\d+)$/,
    handle: async (c) => ok({ data: xList(await c.network.listById(c.params[0]), fieldsOf(c.url, "list.fields")) }),
  },
  {
    method: "GET",
    pattern: /^\/2\/lists\/(\d+)\/members$/,
    handle: async (c) => usersPage(c, await c.network.listMembers(c.params[0], pageOf(c, 1, 100, 100))),
  },
  { method: "GET", pattern: /^\/2\/lists\/(\d+)\/tweets$/, handle: async (c) => tweetsPage(c, await c.network.listPosts(c.params[0], pageOf(c, 1, 100, 100))) },
  {
    method: "GET",
    pattern: /^\/2\/dm_events$/,
    userContext: true,
    async handle(c) {
      const page = await c.network.directMessages(c.userId!, pageOf(c, 1, 100, 100));
      const data = page.items.map((dm) => ({
        id: dm.id,
        event_type: "MessageCreate",
        text: dm.text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
        sender_id: dm.senderId,
        created_at: dm.createdAt,
        dm_conversation_id: [dm.senderId, dm.recipientId].sort().join("-"),
      }));
      return ok({ ...(data.length > 0 ? { data } : {}), meta: metaOf(page) });
    },
  },
  {
    // The project's usage (x-api/usage/introduction.mdx): app-only (openapi.json `getUsage`: BearerToken), the doctor's cheap read.
    method: "GET",
    pattern: /^\/2\/usage\/tweets$/,
    async handle(c) {
      if (c.userId !== undefined) {
        return {
          status: 403,
          body: {
            title: "Unsupported Authentication",
            detail:
              "Authenticating with OAuth 2.0 User Context is forbidden for this endpoint.  Supported authentication types are [OAuth 2.0 Application-Only].",
            type: "https://api.twitter.com/2/problems/unsupported-authentication",
            status: 403,
          },
        };
      }
      const date = `${new Date(c.clock.now()).toISOString().slice(0, 10)}T00:00:00.000Z`;
      return ok({
        data: { project_id: "1", project_cap: "10000000", project_usage: "0", daily_project_usage: { project_id: "1", usage: [{ date, usage: "0" }] } },
      });
    },
  },
];

function pageOf(c: RouteContext, min: number, max: number, fallback: number, tokenParam = "pagination_token") {
  const cursor = c.url.searchParams.get(tokenParam) ?? c.url.searchParams.get("pagination_token") ?? undefined;
  return { limit: maxResults(c.url, min, max, fallback), cursor };
}

function windowOf(c: RouteContext) {
  return { since: timeParam(c.url, "start_time"), until: timeParam(c.url, "end_time") };
}

function metaOf(page: Page<{ id: string }>): Record<string, unknown> {
  const meta: Record<string, unknown> = { result_count: page.items.length };
  if (page.nextCursor) meta.next_token = page.nextCursor;
  return meta;
}

async function userAnswer(c: RouteContext, user: NetworkUser): Promise<XAnswer> {
  return ok({ data: xUser(user, fieldsOf(c.url, "user.fields")) });
}

function usersAnswer(c: RouteContext, users: NetworkUser[], errors: unknown[]): XAnswer {
  const fields = fieldsOf(c.url, "user.fields");
  return ok({ ...(users.length > 0 ? { data: users.map((user) => xUser(user, fields)) } : {}), ...(errors.length > 0 ? { errors } : {}) });
}

function usersPage(c: RouteContext, page: Page<NetworkUser>): XAnswer {
  const fields = fieldsOf(c.url, "user.fields");
  return ok({ ...(page.items.length > 0 ? { data: page.items.map((user) => xUser(user, fields)) } : {}), meta: metaOf(page) });
}

async function tweetsPage(c: RouteContext, page: Page<NetworkPost>): Promise<XAnswer> {
  const meta = metaOf(page);
  if (page.items.length === 0) return ok({ meta });
  return ok({ ...(await tweetsBody(c.network, c.url, page.items)), meta: { newest_id: page.items[0].id, oldest_id: page.items.at(-1)!.id, ...meta } });
}
