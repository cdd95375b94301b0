/**
 * Followers and following. A world person's followers are their engaged circle first,
 * then lurkers up to their follower count as of now (so the list grows at its end as
 * the account grows); whom they follow is the accounts whose circles hold them, then
 * lurkers up to their following count. Offsets page both lists.
 */
import type { NetworkUser, Page, PageRequest } from "../../../core/network/network_records.ts";
import { lurkerAt, lurkerProfile } from "./lurkers.ts";
import { offsetCursor, pageSize, readOffsetCursor } from "./paging.ts";
import { profileOfPerson, requirePerson, type Person } from "./people.ts";
import { followersAt } from "./population.ts";
import { profileOf } from "./profiles.ts";
import type { SimulatedContext } from "./simulated_context.ts";

/** Accounts following `userId`. */
export async function followersPage(ctx: SimulatedContext, userId: string, options: PageRequest = {}): Promise<Page<NetworkUser>> {
  const person = await requirePerson(ctx, userId);
  const now = ctx.clock.now();
  const { world } = ctx;
  if (person.kind === "world") {
    const circle = world.circle(person.index);
    const total = followersAt(world.pop, person.index, now);
    const engaged = Math.min(circle.length, total);
    return slice(options, total, (at) =>
      at < engaged ? profileOf(world, circle[at], now) : lurkerProfile(world.seed, lurkerAt(world.seed, person.index, 0xf011, at - engaged)),
    );
  }
  return lurkerList(ctx, person, options, now, "followersCount", 0xf012);
}

/** Accounts `userId` follows. */
export async function followingPage(ctx: SimulatedContext, userId: string, options: PageRequest = {}): Promise<Page<NetworkUser>> {
  const person = await requirePerson(ctx, userId);
  const now = ctx.clock.now();
  const { world } = ctx;
  if (person.kind === "world") {
    const reads = world.reads(person.index);
    const total = Math.max(world.pop.following[person.index], reads.length);
    return slice(options, total, (at) =>
      at < reads.length ? profileOf(world, reads[at], now) : lurkerProfile(world.seed, lurkerAt(world.seed, person.index, 0xf021, at - reads.length)),
    );
  }
  return lurkerList(ctx, person, options, now, "followingCount", 0xf022);
}

function lurkerList(
  ctx: SimulatedContext,
  person: Person,
  options: PageRequest,
  now: number,
  count: "followersCount" | "followingCount",
  salt: number,
): Page<NetworkUser> {
  if (person.kind !== "lurker") return { items: [] };
  const total = profileOfPerson(ctx, person, now)[count];
  return slice(options, total, (at) => lurkerProfile(ctx.world.seed, lurkerAt(ctx.world.seed, person.index, salt, at)));
}

function slice(options: PageRequest, total: number, at: (position: number) => NetworkUser): Page<NetworkUser> {
  const limit = pageSize(options.limit, 100, 1000);
  const offset = readOffsetCursor(options.cursor);
  const items: NetworkUser[] = [];
  for (let position = offset; position < Math.min(total, offset + limit); position++) items.push(at(position));
  return offset + limit < total ? { items, nextCursor: offsetCursor(offset + limit) } : { items };
}
