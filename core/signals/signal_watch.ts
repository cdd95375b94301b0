/**
 * What one signal of an agent saw since its last run (docs/areas.md "Signals"): new keyword
 * matches, people newly replying to or quoting a watched profile, new followers of a
 * watched handle, new posts by the members of a watched list. Each watch reads a bounded
 * number of pages through the network port, newest first, and answers the candidates
 * (one per person, their newest action) with the cursor to store once they are judged.
 *
 * A burst larger than a run's pages keeps the newest and skips the older ones: an agent
 * is after fresh signals, and the next run starts from the newest seen.
 */
import type { NetworkPost, NetworkUser, Page } from "../network/network_records.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { pageWalker } from "../network/page_walker.ts";
import { postUrl } from "../network/post_url.ts";
import { AGENT_RUN_LIMITS } from "./agent_run_rhythm.ts";
import { DAY_MS } from "../time/durations.ts";
import type { LeadProvenance, SignalType } from "./signal_schema.ts";
import { advancePostCursor, isNewPost, type SignalCursor } from "./signal_watch_cursor.ts";

/** A signal as the runner reads it (`agent_signals`). */
export interface WatchedSignal {
  id: number;
  type: SignalType;
  /** The query, the handle (without `@`) or the list id. */
  target: string;
  /** The resolved X user id or list id; null for keywords. */
  target_id: string | null;
  label: string;
  cursor: SignalCursor | null;
}

/** A person a watch saw, with what they did (the shape lead scoring judges). */
export interface SignalCandidate {
  user: NetworkUser;
  post: NetworkPost | null;
  provenance: LeadProvenance;
}

/** What one watch saw. */
export interface WatchResult {
  candidates: SignalCandidate[];
  /** Where the next run starts, stored with the leads in one commit. */
  cursor: SignalCursor;
  pagesRead: number;
}

/** Who a watch leaves out: the account itself (and, for profile and follower watches, the watched person). */
export interface WatchContext {
  accountId: string;
  now: number;
}

/** Reads what `signal` saw since its cursor. Network failures propagate (the caller keeps the cursor). */
export async function watchSignal(network: SocialNetwork, signal: WatchedSignal, context: WatchContext): Promise<WatchResult> {
  const floorMs = context.now - Math.min(AGENT_RUN_LIMITS.firstRunLookbackDays, network.info.searchWindowDays) * DAY_MS;
  // Search reaches back only so far (X: 7 days): an agent paused longer starts at the window's edge.
  const windowStart = context.now - network.info.searchWindowDays * DAY_MS;
  const since = new Date(Math.max(signal.cursor?.newest_at ? Date.parse(signal.cursor.newest_at) : floorMs, windowStart)).toISOString();
  const pages = { read: 0 };
  const counted = async <T>(page: Promise<Page<T>>) => {
    pages.read += 1;
    return page;
  };
  if (signal.type === "follower_watch") return { ...(await newFollowers(network, signal, context, counted)), pagesRead: pages.read };
  let posts: NetworkPost[];
  if (signal.type === "keyword_watch") {
    posts = await newPosts(signal, floorMs, (cursor) =>
      counted(network.search({ query: signal.target, originalsOnly: true, since, limit: AGENT_RUN_LIMITS.pageSize, cursor })),
    );
  } else if (signal.type === "list_watch") {
    posts = await newPosts(signal, floorMs, (cursor) => counted(network.listPosts(requireTarget(signal), { limit: AGENT_RUN_LIMITS.pageSize, cursor })));
  } else {
    posts = await newEngagements(network, signal, floorMs, counted);
  }
  const action = ACTION_OF[signal.type];
  const candidates = await withAuthors(network, signal, context, posts, action);
  return { candidates, cursor: advancePostCursor(signal.cursor, posts), pagesRead: pages.read };
}

const ACTION_OF = {
  keyword_watch: "posted",
  profile_watch: "engaged_with_profile",
  follower_watch: "followed",
  list_watch: "list_post",
} as const satisfies Record<SignalType, LeadProvenance["action"]>;

type Counted = <T>(page: Promise<Page<T>>) => Promise<Page<T>>;

/** New posts of a newest-first list, page by page, until one reaches what the cursor saw. */
async function newPosts(signal: WatchedSignal, floorMs: number, readPage: (cursor: string | undefined) => Promise<Page<NetworkPost>>): Promise<NetworkPost[]> {
  const found: NetworkPost[] = [];
  // Newest first: a page with an old post ends what is new.
  await pageWalker(AGENT_RUN_LIMITS.pagesPerPostWatch).walk(signal.type, readPage, undefined, (post) => {
    if (!isNewPost(post, signal.cursor, floorMs)) return false;
    found.push(post);
  });
  return found;
}

/** Replies to and quotes of the watched profile's newest posts, newer than the cursor. */
async function newEngagements(network: SocialNetwork, signal: WatchedSignal, floorMs: number, counted: Counted): Promise<NetworkPost[]> {
  const profileId = requireTarget(signal);
  const recent = await counted(
    network.timeline(profileId, {
      excludeReplies: true,
      excludeReposts: true,
      since: new Date(floorMs).toISOString(),
      limit: AGENT_RUN_LIMITS.profilePosts,
    }),
  );
  const found: NetworkPost[] = [];
  for (const post of recent.items.slice(0, AGENT_RUN_LIMITS.profilePosts)) {
    const replies = await counted(network.replies(post.id, { sort: "recent", limit: AGENT_RUN_LIMITS.pageSize }));
    const quotes = await counted(network.quotes(post.id, { limit: AGENT_RUN_LIMITS.pageSize }));
    for (const item of [...replies.items, ...quotes.items]) {
      if (item.authorId !== profileId && isNewPost(item, signal.cursor, floorMs)) found.push(item);
    }
  }
  return found;
}

/**
 * Followers above the remembered head of the list. A first run takes the newest page
 * (`firstFollowers`) as the handle's recent followers; later runs read until a follower
 * seen before, at most `followerPages` pages.
 */
async function newFollowers(network: SocialNetwork, signal: WatchedSignal, context: WatchContext, counted: Counted): Promise<Omit<WatchResult, "pagesRead">> {
  const watchedId = requireTarget(signal);
  const first = signal.cursor?.head_ids === undefined;
  const known = new Set(signal.cursor?.head_ids ?? []);
  const fresh: NetworkUser[] = [];
  let head: string[] | undefined;
  const limit = first ? AGENT_RUN_LIMITS.firstFollowers : AGENT_RUN_LIMITS.pageSize;
  const readPage = (cursor: string | undefined) => counted(network.followers(watchedId, { limit, cursor }));
  await pageWalker(first ? 1 : AGENT_RUN_LIMITS.followerPages).walkPages("followers", readPage, undefined, ({ items }) => {
    head ??= items.slice(0, AGENT_RUN_LIMITS.followerHeadIds).map((user) => user.id);
    const stop = items.findIndex((user) => known.has(user.id));
    fresh.push(...(stop === -1 ? items : items.slice(0, stop)));
    return stop === -1;
  });
  const candidates = fresh
    .filter((user) => user.id !== context.accountId && user.id !== watchedId)
    .slice(0, AGENT_RUN_LIMITS.candidatesPerSignal)
    .map((user) => ({ user, post: null, provenance: provenanceOf(signal, "followed", null, user, context.now) }));
  return { candidates, cursor: { head_ids: head && head.length > 0 ? head : (signal.cursor?.head_ids ?? []) } };
}

/** One candidate per author (their newest post), with profiles, newest first, bounded. */
async function withAuthors(
  network: SocialNetwork,
  signal: WatchedSignal,
  context: WatchContext,
  posts: readonly NetworkPost[],
  action: LeadProvenance["action"],
): Promise<SignalCandidate[]> {
  const newest = new Map<string, NetworkPost>();
  const sorted = [...posts].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  for (const post of sorted) {
    if (post.authorId === context.accountId || post.authorId === signal.target_id) continue;
    if (!newest.has(post.authorId)) newest.set(post.authorId, post);
    if (newest.size >= AGENT_RUN_LIMITS.candidatesPerSignal) break;
  }
  if (newest.size === 0) return [];
  const users = await network.usersByIds([...newest.keys()]);
  return users.map((user) => {
    const post = newest.get(user.id)!;
    return { user, post, provenance: provenanceOf(signal, action, post, user, context.now) };
  });
}

/** Why a candidate came up (signal_schema.ts `leadProvenance`). */
function provenanceOf(signal: WatchedSignal, action: LeadProvenance["action"], post: NetworkPost | null, user: NetworkUser, now: number): LeadProvenance {
  return {
    action,
    signal_id: signal.id,
    signal_type: signal.type,
    watched: signal.label,
    tweet_id: post?.id ?? null,
    post_text: post?.text ?? null,
    post_url: post ? postUrl(user.username, post.id) : null,
    posted_at: post?.createdAt ?? null,
    post_age_days: post ? Math.max(0, Math.floor((now - Date.parse(post.createdAt)) / DAY_MS)) : null,
  };
}

/** A people or list watch's resolved id (the signal row convention: set at creation). */
function requireTarget(signal: WatchedSignal): string {
  if (!signal.target_id) throw new Error(`Signal ${signal.id} (${signal.type}) has no resolved target id`);
  return signal.target_id;
}
