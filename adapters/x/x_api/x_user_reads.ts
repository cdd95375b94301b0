/**
 * Profiles and lists of people: `GET /2/users/by/username/:username`, `/2/users/:id`,
 * `/2/users?ids=`, `/2/users/by?usernames=` (at most 100 a request, so longer batches
 * are split), `/2/users/:id/followers|following`, `/2/tweets/:id/retweeted_by` and
 * `/2/tweets/:id/liking_users`. X lists at most 100 reposters or likers a page, so
 * the port's 1,000 is clamped to that.
 */
import { NetworkNotFoundError } from "../../../core/network/network_errors.ts";
import type { NetworkUser } from "../../../core/network/network_records.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import type { XApiContext } from "./x_api_context.ts";
import { USER_PARAMS } from "./x_api_fields.ts";
import type { XUser } from "./x_api_types.ts";
import { readUserPage } from "./x_page_reads.ts";
import { planPage } from "./x_paging.ts";
import { userFromX } from "./x_user_record.ts";
import { isXId, xId } from "./x_ids.ts";

const HANDLE = /^[A-Za-z0-9_]{1,15}$/;
const BATCH = 100;

/** The port's user reads over X. */
export function xUserReads(
  ctx: XApiContext,
): Pick<SocialNetwork, "userByUsername" | "userById" | "usersByIds" | "usersByUsernames" | "followers" | "following" | "reposters" | "likers"> {
  const { client } = ctx;
  const one = async (path: string, ref: string) => userFromX((await client.data<XUser>({ path, query: USER_PARAMS, subject: { resource: "user", ref } })).data);
  const many = async (values: readonly string[], path: string, param: string, keyOf: (user: NetworkUser) => string, normalize: (value: string) => string) => {
    const wanted = [...new Set(values)];
    const found = new Map<string, NetworkUser>();
    for (let start = 0; start < wanted.length; start += BATCH) {
      const chunk = wanted.slice(start, start + BATCH);
      // Missing ones come back as partial errors (alone, when none exists): left out.
      const body = await client.request<XUser[]>({ path, query: { ...USER_PARAMS, [param]: chunk.join(",") }, subject: { resource: "user", ref: chunk[0] } });
      for (const user of body.data ?? []) found.set(keyOf(userFromX(user)), userFromX(user));
    }
    return values.flatMap((value) => found.get(normalize(value)) ?? []);
  };
  return {
    async userByUsername(username) {
      const handle = username.replace(/^@/, "");
      // X answers 400 to a malformed handle; the port calls it missing, as the simulated network does.
      if (!HANDLE.test(handle)) throw new NetworkNotFoundError("user", handle);
      return one(`/2/users/by/username/${handle}`, handle);
    },
    userById: async (id) => one(`/2/users/${xId(id, "user")}`, id),
    usersByIds: (ids) =>
      many(
        ids.filter(isXId),
        "/2/users",
        "ids",
        (user) => user.id,
        (id) => id,
      ),
    usersByUsernames: (usernames) =>
      many(
        usernames.map((name) => name.replace(/^@/, "")).filter((handle) => HANDLE.test(handle)),
        "/2/users/by",
        "usernames",
        (user) => user.username.toLowerCase(),
        (handle) => handle.toLowerCase(),
      ),
    followers: async (userId, page = {}) =>
      readUserPage(
        ctx,
        { path: `/2/users/${xId(userId, "user")}/followers`, subject: { resource: "user", ref: userId } },
        planPage(page, 100, 1000, { min: 1, max: 1000 }),
      ),
    following: async (userId, page = {}) =>
      readUserPage(
        ctx,
        { path: `/2/users/${xId(userId, "user")}/following`, subject: { resource: "user", ref: userId } },
        planPage(page, 100, 1000, { min: 1, max: 1000 }),
      ),
    reposters: async (postId, page = {}) =>
      readUserPage(
        ctx,
        { path: `/2/tweets/${xId(postId, "post")}/retweeted_by`, subject: { resource: "post", ref: postId } },
        planPage(page, 100, 1000, { min: 1, max: 100 }),
      ),
    likers: async (postId, page = {}) =>
      readUserPage(
        ctx,
        { path: `/2/tweets/${xId(postId, "post")}/liking_users`, subject: { resource: "post", ref: postId } },
        planPage(page, 100, 1000, { min: 1, max: 100 }),
      ),
  };
}
