/**
 * The demo world's `x.*` fixtures in the simulated network (shared/spec/demo_world.md).
 * They name anchors and hand-placed posts and lists, so they are the same for every
 * seed and never change as the clock moves.
 */
import type { NetworkDemoFixtures } from "../../../core/network/network_records.ts";
import { ANCHOR_ACCOUNTS, FIXTURE_POSTS, UNKNOWN_HANDLE } from "./anchors.ts";
import { FIXTURE_SLOT } from "./original_posts.ts";
import { encodePostId } from "./post_ids.ts";
import { listId } from "./world_lists.ts";

const anchorIndex = (username: string) => ANCHOR_ACCOUNTS.findIndex((anchor) => anchor.username === username);

const fixturePostId = (author: string) => {
  const post = FIXTURE_POSTS.find((fixture) => fixture.author === author)!;
  return encodePostId({ type: "original", author: anchorIndex(author), slot: FIXTURE_SLOT }, Date.parse(post.at));
};

/** Handles and ids for the demo JSON's `x` key. */
export function simulatedDemoFixtures(): NetworkDemoFixtures {
  return {
    user_handle: "kai_on_ai",
    unknown_handle: UNKNOWN_HANDLE,
    post_id: fixturePostId("nina_designs"),
    large_post_id: fixturePostId("kai_on_ai"),
    public_list_id: listId(anchorIndex("kai_on_ai"), 0),
    private_list_id: listId(anchorIndex("nina_designs"), 0),
    protected_handle: "quiet_vault",
  };
}
