/**
 * The simulated social network: the SocialNetwork port over a deterministic world
 * derived from a seed (world.ts), with what Threadline's users write stored through
 * the Sql port and merged into every read. The embedded default, and the world the X
 * API v2 fake server serves in tests.
 *
 * @example
 * const network = createSimulatedNetwork({ sql, clock: systemClock, seed: 7 });
 * const ada = await network.userByUsername("ada_builds");
 * const { items } = await network.timeline(ada.id, { limit: 10 });
 */
import type { Clock } from "../../../core/clock.ts";
import type { Sql } from "../../../core/db/sql.ts";
import { NetworkNotFoundError } from "../../../core/network/network_errors.ts";
import type { NetworkUser } from "../../../core/network/network_records.ts";
import { publishThreadParts } from "../../../core/network/publish_thread_parts.ts";
import type { SocialNetwork } from "../../../core/network/social_network.ts";
import { publishArticle } from "./article_writes.ts";
import { followersPage, followingPage } from "./audience_reads.ts";
import { simulatedDemoFixtures } from "./demo_fixtures.ts";
import { directMessagesPage, sendDm } from "./direct_messages.ts";
import { followerHistory } from "./follower_history.ts";
import { listMembersPage, listRecord, ownedListsPage, requirePublicList } from "./list_reads.ts";
import { peopleByIds, peopleByUsernames, profileOfPerson, type Person } from "./people.ts";
import { quotesPage, readPost, readPosts, repliesPage, repostersPage } from "./post_reads.ts";
import { deletePost, findPublished, publishPost, repost, undoRepost } from "./post_writes.ts";
import { searchPage } from "./search_reads.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { listPostsPage, mentionsPage, timelinePage } from "./timeline_reads.ts";
import { sharedWorld } from "./shared_worlds.ts";
import type { World } from "./world.ts";
import { WORLD_VOCABULARY } from "./vocabulary_topics.ts";

/** How to build the simulated network. */
export interface SimulatedNetworkOptions {
  /** Where writes are stored (its migrations applied: simulated_migrations.ts). */
  sql: Sql;
  clock: Clock;
  /** The world's seed: the same seed gives the same people, posts and metrics. */
  seed: number;
  /** People in the world, anchors included (default 4,000; at most 8,192, the id scheme's bound). */
  users?: number;
  /** How far back search reaches, in days (default 30). */
  searchWindowDays?: number;
}

/** The people in the world unless told otherwise. */
export const DEFAULT_WORLD_USERS = 4000;

/** The simulated network plus access to its world (tests and the X API fake server read it). */
export type SimulatedNetwork = SocialNetwork & { readonly world: World };

/** Creates the simulated network; nothing is generated until read, beyond the people's core numbers. */
export function createSimulatedNetwork(options: SimulatedNetworkOptions): SimulatedNetwork {
  const users = Math.min(8192, Math.max(1, Math.floor(options.users ?? DEFAULT_WORLD_USERS)));
  const ctx: SimulatedContext = {
    ...sharedWorld(options.seed >>> 0, users),
    sql: options.sql,
    pool: options.sql,
    clock: options.clock,
    guests: new Map(),
    searchWindowDays: options.searchWindowDays ?? 30,
  };
  const profile = (person: Person | undefined, ref: string): NetworkUser => {
    if (!person) throw new NetworkNotFoundError("user", ref);
    return profileOfPerson(ctx, person, ctx.clock.now());
  };
  const present = (people: (Person | undefined)[]) => people.flatMap((person) => (person ? [profileOfPerson(ctx, person, ctx.clock.now())] : []));
  const network: SimulatedNetwork = {
    info: { kind: "simulated", searchWindowDays: ctx.searchWindowDays },
    world: ctx.world,
    userByUsername: async (username) => profile((await peopleByUsernames(ctx, [username]))[0], username.replace(/^@/, "")),
    userById: async (id) => profile((await peopleByIds(ctx, [id]))[0], id),
    usersByIds: async (ids) => present(await peopleByIds(ctx, ids)),
    usersByUsernames: async (usernames) => present(await peopleByUsernames(ctx, usernames)),
    postById: (id) => readPost(ctx, id),
    postsByIds: (ids) => readPosts(ctx, ids),
    replies: (postId, page) => repliesPage(ctx, postId, page),
    quotes: (postId, page) => quotesPage(ctx, postId, page),
    reposters: (postId, page) => repostersPage(ctx, postId, page),
    timeline: (userId, page) => timelinePage(ctx, userId, page),
    search: (page) => searchPage(ctx, page),
    mentions: (userId, page) => mentionsPage(ctx, userId, page),
    followers: (userId, page) => followersPage(ctx, userId, page),
    following: (userId, page) => followingPage(ctx, userId, page),
    listById: async (listId) => listRecord(ctx, requirePublicList(ctx, listId)),
    listMembers: async (listId, page) => listMembersPage(ctx, listId, page),
    listPosts: (listId, page) => listPostsPage(ctx, listId, page),
    ownedLists: (userId, page) => ownedListsPage(ctx, userId, page),
    publishPost: (input) => publishPost(ctx, input),
    publishThread: (input) => publishThreadParts(network, input),
    findPublished: (query) => findPublished(ctx, query),
    deletePost: (authorId, postId) => deletePost(ctx, authorId, postId),
    repost: (userId, postId) => repost(ctx, userId, postId),
    undoRepost: (userId, postId) => undoRepost(ctx, userId, postId),
    publishArticle: (input) => publishArticle(ctx, input),
    sendDm: (input) => sendDm(ctx, input),
    directMessages: (userId, page) => directMessagesPage(ctx, userId, page),
    followerHistory: (userId, days) => followerHistory(ctx, userId, days),
    demoFixtures: simulatedDemoFixtures,
    vocabulary: () => WORLD_VOCABULARY,
  };
  return network;
}
