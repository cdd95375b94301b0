/**
 * A person's follower count day by day, which the world knows because it computes counts
 * from the clock (population.ts `followersAt`): the content sync's first run records the
 * past this way, so analytics show follower growth from the first start.
 */
import type { FollowerCountOnDay } from "../../../core/network/social_network.ts";
import { requirePerson, profileOfPerson } from "./people.ts";
import { followersAt } from "./population.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { dayOf } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";

/** The count at the end of each of the last `days` UTC days (today: now), oldest first; guests have no past. */
export async function followerHistory(ctx: SimulatedContext, userId: string, days: number): Promise<FollowerCountOnDay[]> {
  const person = await requirePerson(ctx, userId);
  if (person.kind === "guest") return [];
  const now = ctx.clock.now();
  const today = dayOf(now);
  const count = Math.max(0, Math.min(3660, Math.floor(days)));
  const history: FollowerCountOnDay[] = [];
  for (let day = today - count + 1; day <= today; day++) {
    const at = Math.min(now, (day + 1) * DAY_MS - 1);
    const followers = person.kind === "world" ? followersAt(ctx.world.pop, person.index, at) : profileOfPerson(ctx, person, at).followersCount;
    history.push({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), followers });
  }
  return history;
}
