/** Lists by id, their members, and the lists a person owns. */
import { NetworkNotFoundError, NetworkPrivateError } from "../../../core/network/network_errors.ts";
import type { NetworkList, NetworkUser, Page, PageRequest } from "../../../core/network/network_records.ts";
import { offsetCursor, pageSize, readOffsetCursor } from "./paging.ts";
import { requirePerson } from "./people.ts";
import { profileOf } from "./profiles.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { isoTime } from "./time_units.ts";
import { decodeListId, listsOf, type WorldList } from "./world_lists.ts";

/** A public list of the world; private lists answer NetworkPrivateError (X shows them only to their owner). */
export function requirePublicList(ctx: SimulatedContext, listId: string): WorldList {
  const key = decodeListId(listId);
  const list = key && key.owner < ctx.world.pop.size ? listsOf(ctx.world, key.owner)[key.n] : undefined;
  if (!list || list.id !== listId) throw new NetworkNotFoundError("list", listId);
  if (list.private) throw new NetworkPrivateError("list", listId);
  return list;
}

/** A list as the port returns it. */
export function listRecord(ctx: SimulatedContext, list: WorldList): NetworkList {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    ownerId: ctx.world.pop.ids[list.owner],
    private: list.private,
    memberCount: list.members.length,
    followerCount: list.followerCount,
    createdAt: isoTime(list.createdMs),
  };
}

/** Members of a public list, most recently added first. */
export function listMembersPage(ctx: SimulatedContext, listId: string, options: PageRequest = {}): Page<NetworkUser> {
  const list = requirePublicList(ctx, listId);
  const limit = pageSize(options.limit, 100, 1000);
  const offset = readOffsetCursor(options.cursor);
  const now = ctx.clock.now();
  const items = [...list.members.subarray(offset, offset + limit)].map((member) => profileOf(ctx.world, member, now));
  return offset + limit < list.members.length ? { items, nextCursor: offsetCursor(offset + limit) } : { items };
}

/** Lists `userId` owns, private ones included. */
export async function ownedListsPage(ctx: SimulatedContext, userId: string, options: PageRequest = {}): Promise<Page<NetworkList>> {
  const person = await requirePerson(ctx, userId);
  if (person.kind !== "world") return { items: [] };
  const lists = listsOf(ctx.world, person.index);
  const limit = pageSize(options.limit, 100, 100);
  const offset = readOffsetCursor(options.cursor);
  const items = lists.slice(offset, offset + limit).map((list) => listRecord(ctx, list));
  return offset + limit < lists.length ? { items, nextCursor: offsetCursor(offset + limit) } : { items };
}
