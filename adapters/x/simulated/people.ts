/**
 * Who an id or handle names: one of the world's people, a lurker, or a Threadline
 * account that is not part of the generated world (a "guest": it exists on the network
 * with whatever it wrote there, and no generated history).
 */
import { NetworkNotFoundError } from "../../../core/network/network_errors.ts";
import type { NetworkUser, PremiumTier } from "../../../core/network/network_records.ts";
import { lurkerIndexFromId, lurkerIndexFromUsername, lurkerProfile, lurkerUsername } from "./lurkers.ts";
import { premiumOf } from "./population.ts";
import { profileOf } from "./profiles.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { isoTime } from "./time_units.ts";
import { guestAccountsByIds, guestAccountsByUsernames, type GuestAccountRow } from "./written_queries.ts";

/** A resolved account. */
export type Person = { kind: "world"; index: number } | { kind: "lurker"; index: number } | { kind: "guest"; user: NetworkUser };

const HANDLE = /^[A-Za-z0-9_]{1,15}$/;

/** The accounts `ids` name, in order, `undefined` where none. */
export async function peopleByIds(ctx: SimulatedContext, ids: readonly string[]): Promise<(Person | undefined)[]> {
  const { pop } = ctx.world;
  const found: (Person | undefined)[] = ids.map((id) => {
    const index = pop.byId.get(id);
    if (index !== undefined) return { kind: "world", index };
    const lurker = lurkerIndexFromId(id);
    return lurker === undefined ? undefined : { kind: "lurker", index: lurker };
  });
  const missing = ids.filter((id, i) => !found[i] && /^\d{1,25}$/.test(id));
  if (missing.length > 0) {
    const guests = new Map((await guestAccountsByIds(ctx.sql, missing)).map((row) => [row.id, guestUser(ctx, row)]));
    ids.forEach((id, i) => {
      const user = guests.get(id);
      if (!found[i] && user) found[i] = { kind: "guest", user };
    });
  }
  return found;
}

/** The accounts `usernames` name (leading `@` and case ignored), in order. */
export async function peopleByUsernames(ctx: SimulatedContext, usernames: readonly string[]): Promise<(Person | undefined)[]> {
  const { pop, seed } = ctx.world;
  const handles = usernames.map((name) => name.replace(/^@/, "").toLowerCase());
  const found: (Person | undefined)[] = handles.map((handle) => {
    if (!HANDLE.test(handle)) return undefined;
    const index = pop.byUsername.get(handle);
    if (index !== undefined) return { kind: "world", index };
    const lurker = lurkerIndexFromUsername(seed, handle);
    return lurker === undefined ? undefined : { kind: "lurker", index: lurker };
  });
  const missing = handles.filter((handle, i) => !found[i] && HANDLE.test(handle));
  if (missing.length > 0) {
    const guests = new Map((await guestAccountsByUsernames(ctx.sql, missing)).map((row) => [row.username.toLowerCase(), guestUser(ctx, row)]));
    handles.forEach((handle, i) => {
      const user = guests.get(handle);
      if (!found[i] && user) found[i] = { kind: "guest", user };
    });
  }
  return found;
}

/** The account `id` names, or NetworkNotFoundError. */
export async function requirePerson(ctx: SimulatedContext, id: string): Promise<Person> {
  const [person] = await peopleByIds(ctx, [id]);
  if (!person) throw new NetworkNotFoundError("user", id);
  return person;
}

/** A person's profile as of `now`. */
export function profileOfPerson(ctx: SimulatedContext, person: Person, now: number): NetworkUser {
  if (person.kind === "world") return profileOf(ctx.world, person.index, now);
  if (person.kind === "lurker") return lurkerProfile(ctx.world.seed, person.index);
  return person.user;
}

/** A person's id. */
export function idOfPerson(ctx: SimulatedContext, person: Person): string {
  return person.kind === "world" ? ctx.world.pop.ids[person.index] : person.kind === "guest" ? person.user.id : profileOfPerson(ctx, person, 0).id;
}

/** A person's premium tier. */
export function premiumOfPerson(ctx: SimulatedContext, person: Person): PremiumTier {
  return person.kind === "world" ? premiumOf(ctx.world.pop, person.index) : person.kind === "guest" ? person.user.premium : "none";
}

/** The handle of an id already resolved once (world people, lurkers, guests seen); `user<id>` otherwise. */
export function usernameOf(ctx: SimulatedContext, id: string): string {
  const index = ctx.world.pop.byId.get(id);
  if (index !== undefined) return ctx.world.pop.usernames[index];
  const guest = ctx.guests.get(id);
  if (guest) return guest.username;
  const lurker = lurkerIndexFromId(id);
  return lurker === undefined ? `user${id.slice(-6)}` : lurkerUsername(ctx.world.seed, lurker);
}

/** Makes sure `usernameOf` knows the guests among `ids`. */
export async function learnGuests(ctx: SimulatedContext, ids: readonly string[]): Promise<void> {
  const unknown = [...new Set(ids)].filter((id) => !ctx.world.pop.byId.has(id) && !ctx.guests.has(id) && lurkerIndexFromId(id) === undefined);
  if (unknown.length > 0) await peopleByIds(ctx, unknown);
}

function guestUser(ctx: SimulatedContext, row: GuestAccountRow): NetworkUser {
  const user: NetworkUser = {
    id: row.id,
    username: row.username.replace(/^@/, ""),
    name: row.name,
    description: "",
    location: null,
    url: null,
    avatarUrl: row.avatar_url,
    createdAt: isoTime(row.created_at.getTime()),
    protected: false,
    verified: row.x_premium,
    verifiedType: row.x_premium ? "blue" : "none",
    premium: row.x_premium ? "premium" : "none",
    followersCount: 0,
    followingCount: 0,
    postCount: 0,
    listedCount: 0,
    pinnedPostId: null,
    canDm: true,
  };
  ctx.guests.set(user.id, user);
  return user;
}
