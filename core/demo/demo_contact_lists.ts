/**
 * The demo world's contact lists (shared/spec/demo_world.md `contact_lists.user` and
 * `.system`): A's list "Podcast guests" with a few people from the network, a note on the
 * first, and the Followers system list. Re-runs find the list by name. With the network
 * down (`THREADLINE_FAULTS=x`) the list starts empty.
 */
import type { Services } from "../context.ts";
import { NetworkUnavailableError } from "../network/network_errors.ts";
import type { NetworkUser } from "../network/network_records.ts";
import { upsertContactProfiles } from "../people/contact_profiles_queries.ts";
import { countNotes, insertNote } from "../audience/contact_notes_queries.ts";
import { addToMemberCount, ensureSystemLists, insertList, systemListId, userListNamed } from "../contact_lists/contact_lists_queries.ts";
import { insertMembers } from "../contact_lists/list_members_queries.ts";

const LIST_NAME = "Podcast guests";
const NOTE = "Met at the indie founders meetup; open to a podcast chat in January.";

/** Ensures A's demo lists; answers `{ user, system }` list ids. */
export async function ensureDemoContactLists(services: Services, accountId: string): Promise<{ user: number; system: number }> {
  const { sql, clock } = services;
  const now = new Date(clock.now());
  await ensureSystemLists(sql, accountId, now);
  const system = await systemListId(sql, accountId, "followers");
  const existing = await userListNamed(sql, accountId, LIST_NAME);
  if (existing) return { user: existing.id, system };
  const people = (await guests(services)).filter((person) => person.id !== accountId);
  const user = await sql.begin(async (tx) => {
    const list = await insertList(tx, accountId, LIST_NAME, now);
    await upsertContactProfiles(tx, accountId, people, now);
    const added = await insertMembers(
      tx,
      list.id,
      accountId,
      people.map((person) => person.id),
      "manual",
      now,
    );
    if (added.length > 0) await addToMemberCount(tx, list.id, added.length, now);
    if (people[0] && (await countNotes(tx, accountId, people[0].id)) === 0) {
      await insertNote(tx, { account_id: accountId, x_user_id: people[0].id, body: NOTE, created_by: accountId, created_at: now, updated_at: now });
    }
    return list.id;
  });
  return { user, system };
}

/** The network's public demo handle and a few people who post in its world. */
async function guests(services: Services): Promise<NetworkUser[]> {
  const { network } = services;
  try {
    const fixtures = network.demoFixtures?.();
    const first = fixtures ? [await network.userByUsername(fixtures.user_handle)] : [];
    const found = await network.search({ query: "founders", limit: 10 });
    const authors = await network.usersByIds([...new Set(found.items.map((post) => post.authorId))].slice(0, 4));
    return [...first, ...authors.filter((author) => author.id !== first[0]?.id)];
  } catch (error) {
    if (error instanceof NetworkUnavailableError) return [];
    throw error;
  }
}
