/**
 * SQL of the people every area deposits into an account's contacts (table `contacts`,
 * migration 0023): the audience syncs, list members, leads and datasets store the profile
 * as last read here, and the audience area reads and ranks them (core/audience/).
 */
import type { Queryable } from "../db/sql.ts";
import type { NetworkUser } from "../network/network_records.ts";

const BATCH = 500;

/** The profile columns of a contact read from the network. */
function profileColumns(accountId: string, user: NetworkUser, now: Date) {
  return {
    account_id: accountId,
    x_user_id: user.id,
    username: user.username,
    name: user.name,
    avatar_url: user.avatarUrl,
    location: user.location ?? "",
    bio: user.description,
    url: user.url,
    verified: user.verified,
    verified_type: user.verifiedType,
    followers_count: user.followersCount,
    following_count: user.followingCount,
    posts_count: user.postCount,
    can_dm: user.canDm,
    profile_read_at: now,
    created_at: now,
  };
}

/**
 * Inserts people as contacts of `accountId`, or refreshes the profile of those already
 * known (their engagement counts and first-seen time are kept).
 */
export async function upsertContactProfiles(sql: Queryable, accountId: string, users: readonly NetworkUser[], now: Date): Promise<void> {
  const unique = [...new Map(users.map((user) => [user.id, user])).values()];
  for (let start = 0; start < unique.length; start += BATCH) {
    const rows = unique.slice(start, start + BATCH).map((user) => profileColumns(accountId, user, now));
    await sql`
      insert into contacts ${sql(rows as never)}
      on conflict (account_id, x_user_id) do update set
        username = excluded.username, name = excluded.name, avatar_url = excluded.avatar_url,
        location = excluded.location, bio = excluded.bio, url = excluded.url, verified = excluded.verified,
        verified_type = excluded.verified_type, followers_count = excluded.followers_count,
        following_count = excluded.following_count, posts_count = excluded.posts_count, can_dm = excluded.can_dm, profile_read_at = excluded.profile_read_at`;
  }
}

/** The ids among `xUserIds` the account knows. */
export async function knownContactIds(sql: Queryable, accountId: string, xUserIds: readonly string[]): Promise<Set<string>> {
  const rows = await sql<{ x_user_id: string }[]>`
    select x_user_id from contacts where account_id = ${accountId} and x_user_id = any(${xUserIds as string[]}::text[])`;
  return new Set(rows.map((row) => row.x_user_id));
}
