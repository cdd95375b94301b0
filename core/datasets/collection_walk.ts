/**
 * The walk of a network collection (docs/areas.md "Datasets"): pages of 100 of a post's replies,
 * quotes or reposters, or a list's members, each page turned into rows (one per person,
 * keyed by X user id; repeat appearances counted in `duplicates`; never the account
 * itself), filtered, up to `max_rows`. The request path walks a small collection in one go;
 * the `build_dataset` job walks a large one, committing each page with the cursor of the
 * next (core/datasets/collect_dataset.ts), so a crashed job resumes where it stopped.
 */
import type { NetworkPost, NetworkUser, Page } from "../network/network_records.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { pageWalker } from "../network/page_walker.ts";
import { profilesOf } from "../network/profiles_of.ts";
import { type Candidate, type CollectionFilters, passesFilters } from "./collection_filters.ts";
import type { DatasetSource } from "./dataset_schema.ts";
import type { NewDatasetRow } from "./datasets_queries.ts";
import { personColumns, postColumns } from "./row_columns.ts";

/** Items per page read (spec Limits 7: "page at `limit=100`"). */
export const COLLECTION_PAGE_SIZE = 100;

/**
 * The most a filtered walk reads (50 pages): filters may leave most people out, and a walk
 * that never reaches `max_rows` must still end. An unfiltered walk reads about `max_rows`.
 */
export const COLLECTION_SCAN_LIMIT = 5_000;

/** Counts shown on the dataset (api: DatasetCounts). */
export interface WalkCounts {
  scanned: number;
  matched: number;
  filtered_out: number;
  duplicates: number;
}

/** Where a walk is: the next page's cursor (absent: the first), its counts, and whether it ended. */
export interface WalkState {
  next?: string;
  counts: WalkCounts;
  done: boolean;
}

/** What a network walk reads and keeps. */
export interface WalkSpec {
  source: Exclude<DatasetSource, "research" | "my_posts" | "my_replies">;
  targetId: string;
  /** The account's own X id: never a row. */
  selfId: string;
  maxRows: number;
  filters: CollectionFilters;
  /** Items read at most (COLLECTION_SCAN_LIMIT). */
  scanLimit: number;
}

/** A walk at its start. */
export function startState(): WalkState {
  return { counts: { scanned: 0, matched: 0, filtered_out: 0, duplicates: 0 }, done: false };
}

/** Reads one page of the walk's source from `cursor`, with each post's author. */
export async function readCollectionPage(network: SocialNetwork, spec: WalkSpec, cursor: string | undefined): Promise<Page<Candidate>> {
  const page = { cursor, limit: COLLECTION_PAGE_SIZE };
  switch (spec.source) {
    case "repliers":
      return withAuthors(network, await network.replies(spec.targetId, { ...page, sort: "recent" }));
    case "quoters":
      return withAuthors(network, await network.quotes(spec.targetId, page));
    case "reposters":
      return people(await network.reposters(spec.targetId, page));
    case "list_members":
      return people(await network.listMembers(spec.targetId, page));
  }
}

async function withAuthors(network: SocialNetwork, page: Page<NetworkPost>): Promise<Page<Candidate>> {
  const authors = await profilesOf(network, [...new Set(page.items.map((post) => post.authorId))]);
  // A post whose author cannot be read (suspended, deleted since) has no person to keep.
  const items = page.items.flatMap((post) => {
    const user = authors.get(post.authorId);
    return user ? [{ user, post }] : [];
  });
  return { items, nextCursor: page.nextCursor };
}

function people(page: Page<NetworkUser>): Page<Candidate> {
  return { items: page.items.map((user) => ({ user })), nextCursor: page.nextCursor };
}

/**
 * Turns a page into rows, updating `state` (counts, cursor, done) and `seen` (keys kept or
 * left out so far). Stops mid-page once `max_rows` matched or the scan limit is reached.
 */
export function takePage(spec: WalkSpec, state: WalkState, page: Page<Candidate>, seen: Set<string>): NewDatasetRow[] {
  const rows: NewDatasetRow[] = [];
  const { counts } = state;
  let stopped = false;
  for (const candidate of page.items) {
    if (counts.matched >= spec.maxRows || counts.scanned >= spec.scanLimit) {
      stopped = true;
      break;
    }
    counts.scanned += 1;
    const user = candidate.user!;
    if (seen.has(user.id)) {
      counts.duplicates += 1;
      continue;
    }
    seen.add(user.id);
    // Never the account itself (it may reply in its own thread or sit on the list).
    if (user.id === spec.selfId || !passesFilters(spec.filters, candidate)) {
      counts.filtered_out += 1;
      continue;
    }
    counts.matched += 1;
    rows.push({ key: user.id, ...personColumns(user), ...(candidate.post ? postColumns(candidate.post, user.username) : {}) });
  }
  state.next = page.nextCursor;
  state.done = !page.nextCursor || stopped || counts.matched >= spec.maxRows || counts.scanned >= spec.scanLimit;
  return rows;
}

/**
 * Walks from `state` until it is done or `maxPages` were read (core/network/page_walker.ts),
 * handing each page's rows to `commit` (which must store them with the state as one unit).
 * Answers the pages read.
 */
export async function walkCollection(
  network: SocialNetwork,
  spec: WalkSpec,
  state: WalkState,
  seen: Set<string>,
  commit: (rows: NewDatasetRow[], state: WalkState) => Promise<void>,
  maxPages = Number.POSITIVE_INFINITY,
): Promise<number> {
  if (state.done) return 0;
  const walker = pageWalker(maxPages);
  await walker.walkPages(
    `${spec.source} of ${spec.targetId}`,
    (cursor) => readCollectionPage(network, spec, cursor),
    state.next,
    async (page) => {
      await commit(takePage(spec, state, page, seen), state);
      return !state.done;
    },
  );
  return walker.read();
}
