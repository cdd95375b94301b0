/**
 * The network as `THREADLINE_FAULTS=x` makes it: every call fails with
 * NetworkUnavailableError, which endpoints answer as `503 upstream_unavailable`
 * (ARCHITECTURE: "Fault switches for tests").
 */
import { NetworkUnavailableError } from "../../core/network/network_errors.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";

/** Wraps `network` so that every call rejects; `info` and the demo fixtures stay readable. */
export function createFaultyNetwork(network: SocialNetwork): SocialNetwork {
  const fail = (): Promise<never> => Promise.reject(new NetworkUnavailableError("X is unreachable (THREADLINE_FAULTS=x)"));
  return {
    info: network.info,
    userByUsername: fail,
    userById: fail,
    usersByIds: fail,
    usersByUsernames: fail,
    postById: fail,
    postsByIds: fail,
    replies: fail,
    quotes: fail,
    reposters: fail,
    likers: fail,
    timeline: fail,
    search: fail,
    mentions: fail,
    followers: fail,
    following: fail,
    listById: fail,
    listMembers: fail,
    listPosts: fail,
    ownedLists: fail,
    publishPost: fail,
    publishThread: fail,
    findPublished: fail,
    deletePost: fail,
    repost: fail,
    undoRepost: fail,
    publishArticle: fail,
    sendDm: fail,
    directMessages: fail,
    followerHistory: network.followerHistory ? fail : undefined,
    // The demo world's fixture ids are facts about the world, not calls to it.
    demoFixtures: network.demoFixtures?.bind(network),
    vocabulary: network.vocabulary?.bind(network),
  };
}
