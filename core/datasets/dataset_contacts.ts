/**
 * `POST /v1/datasets/{id}/contacts` (docs/areas.md "Datasets"; supplement: "One write, no enrichment;
 * de-duplicated by person. Response counts `added`, `duplicates`, `skipped_without_id` ...
 * Re-running is safe"; spec Limits 7: one write, spent by the request path). The dataset's
 * people join a user contact list through the contact-list member queries, with `source`
 * `dataset` (migration 0023 names it). People the account does not know yet become contacts
 * with the profile the dataset holds; known contacts keep their (possibly fresher) profile.
 * Rows of one person after the first are dropped silently; rows without a numeric X user id
 * and a handle are counted in `skipped_without_id`. Own-content datasets (`has_people`
 * false) hold posts, not people: `400 invalid_parameter`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { knownContactIds, upsertContactProfiles } from "../people/contact_profiles_queries.ts";
import { addToMemberCount, lockList } from "../contact_lists/contact_lists_queries.ts";
import { listNotFound, reachableList } from "../contact_lists/list_access.ts";
import { insertMembers } from "../contact_lists/list_members_queries.ts";
import type { NetworkUser } from "../network/network_records.ts";
import { findDataset, requireReady } from "./dataset_access.ts";
import type { DatasetContactsInput } from "./dataset_rows_schema.ts";
import { PEOPLE_SOURCES } from "./dataset_schema.ts";
import type { StoredRow } from "./datasets_queries.ts";
import { walkRows } from "./row_walk.ts";

/** The member `source` of people copied from a dataset. */
const MEMBER_SOURCE = "dataset";

/** Copies a ready dataset's people into a user list of the caller's. */
export async function copyToContactList(ctx: KeyContext, input: DatasetContactsInput) {
  // The account rule before any object's state (docs/architecture.md "The request path"): an
  // account the key cannot reach is 404 account_not_found whatever the dataset's state.
  const { list } = await reachableList(ctx, input.list_id, { accountId: input.account_id, use: "edit" });
  const dataset = requireReady(await findDataset(ctx, input.id));
  if (!PEOPLE_SOURCES.includes(dataset.source)) {
    throw new ApiError(
      "invalid_parameter",
      `Dataset "${dataset.id}" holds your own ${dataset.source === "my_posts" ? "posts" : "replies"}, not people: there is no one to add to a list`,
    );
  }
  const people = new Map<string, NetworkUser>();
  let skipped = 0;
  for await (const row of walkRows(ctx.services.sql, dataset.id)) {
    const person = personOf(row);
    if (!person) skipped += 1;
    else if (!people.has(person.id)) people.set(person.id, person);
  }
  const now = new Date(ctx.services.clock.now());
  return ctx.services.sql.begin(async (tx) => {
    const locked = await lockList(tx, list.id);
    if (!locked) throw listNotFound(list.id);
    const ids = [...people.keys()];
    const known = await knownContactIds(tx, locked.account_id, ids);
    await upsertContactProfiles(
      tx,
      locked.account_id,
      ids.filter((id) => !known.has(id)).map((id) => people.get(id) as NetworkUser),
      now,
    );
    const added = await insertMembers(tx, locked.id, locked.account_id, ids, MEMBER_SOURCE, now);
    const total = added.length > 0 ? await addToMemberCount(tx, locked.id, added.length, now) : locked.member_count;
    return {
      data: {
        dataset_id: dataset.id,
        list_id: String(locked.id),
        added: added.length,
        duplicates: ids.length - added.length,
        skipped_without_id: skipped,
        total_in_list_after: total,
      },
    };
  });
}

/** The person of a row as a contact profile, or undefined without a numeric X user id and a handle. */
function personOf(row: StoredRow): NetworkUser | undefined {
  if (!row.x_user_id || !/^[0-9]{1,20}$/.test(row.x_user_id) || !row.handle?.trim()) return undefined;
  return {
    id: row.x_user_id,
    username: row.handle.replace(/^@/, ""),
    name: row.name ?? row.handle,
    description: row.bio ?? "",
    location: row.location,
    url: row.website,
    avatarUrl: row.avatar_url ?? "",
    createdAt: "",
    protected: false,
    verified: row.verified ?? false,
    verifiedType: row.verified ? "blue" : "none",
    premium: "none",
    followersCount: row.followers_count ?? 0,
    followingCount: row.following_count ?? 0,
    postCount: 0,
    listedCount: 0,
    pinnedPostId: null,
    canDm: row.can_dm ?? false,
  };
}
