/** Profiles by id, read from the network 100 at a time (the X API v2 batch size). */
import type { NetworkUser } from "./network_records.ts";
import type { SocialNetwork } from "./social_network.ts";

/** The profiles that exist among `ids`, keyed by id (missing ones left out). */
export async function profilesOf(network: SocialNetwork, ids: readonly string[]): Promise<Map<string, NetworkUser>> {
  const profiles = new Map<string, NetworkUser>();
  for (let start = 0; start < ids.length; start += 100) {
    for (const user of await network.usersByIds(ids.slice(start, start + 100))) profiles.set(user.id, user);
  }
  return profiles;
}
