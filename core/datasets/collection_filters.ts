/**
 * The `filters` of a collection (supplement: Datasets, collection form): `keywords` (the
 * row's own text contains one, case-insensitive), `bio_keywords`, `min_followers`,
 * `require_website`, `require_can_dm`; `since_days` and `sort` for own content. A filter a
 * source cannot apply is ignored and named in the dataset's `note` (supplement: `my_posts`
 * / `my_replies` "ignore profile filters (the `note` says so)"); Threadline does the same
 * for `keywords` on sources whose rows carry no text (reposters, list members).
 */
import type { NetworkPost, NetworkUser } from "../network/network_records.ts";
import { type DatasetSource, TEXT_SOURCES } from "./dataset_schema.ts";

/** The filters as sent. */
export type CollectionFilters = {
  keywords?: string[];
  bio_keywords?: string[];
  min_followers?: number;
  require_website?: boolean;
  require_can_dm?: boolean;
  since_days?: number;
  sort?: "recent" | "likes" | "impressions";
};

/** One thing a collection read: a person, with the post they appear through when the source has one. */
export interface Candidate {
  user?: NetworkUser;
  post?: NetworkPost;
}

const PROFILE_FILTERS = ["bio_keywords", "min_followers", "require_website", "require_can_dm"] as const;
const OWN_CONTENT: readonly DatasetSource[] = ["my_posts", "my_replies"];

/** The filters `source` applies, and a note naming those it ignores (null when none). */
export function applicableFilters(source: DatasetSource, filters: CollectionFilters): { filters: CollectionFilters; note: string | null } {
  const kept: CollectionFilters = { ...filters };
  const ignored: string[] = [];
  if (OWN_CONTENT.includes(source)) {
    for (const name of PROFILE_FILTERS) if (drop(kept, name)) ignored.push(name);
  } else {
    for (const name of ["since_days", "sort"] as const) if (drop(kept, name)) ignored.push(name);
    if (!TEXT_SOURCES.includes(source) && drop(kept, "keywords")) ignored.push("keywords");
  }
  const note =
    ignored.length === 0
      ? null
      : `Ignored ${ignored.map((name) => `filters.${name}`).join(", ")}: ${source} rows ${OWN_CONTENT.includes(source) ? "are your own posts, not profiles" : "carry no such data"}.`;
  return { filters: kept, note };
}

function drop(filters: CollectionFilters, name: keyof CollectionFilters): boolean {
  if (filters[name] === undefined) return false;
  delete filters[name];
  return true;
}

/** True when `filters` can leave a row out (the walk may then read past `max_rows`). */
export function filtersNarrow(filters: CollectionFilters): boolean {
  return Boolean(filters.keywords?.length || filters.bio_keywords?.length || filters.min_followers || filters.require_website || filters.require_can_dm);
}

/** Whether `candidate` passes every applicable filter. */
export function passesFilters(filters: CollectionFilters, candidate: Candidate): boolean {
  const { user, post } = candidate;
  if (filters.keywords?.length && !containsOne(post?.text, filters.keywords)) return false;
  if (user) {
    if (filters.bio_keywords?.length && !containsOne(user.description, filters.bio_keywords)) return false;
    if (filters.min_followers !== undefined && user.followersCount < filters.min_followers) return false;
    if (filters.require_website && !user.url) return false;
    if (filters.require_can_dm && !user.canDm) return false;
  }
  return true;
}

function containsOne(text: string | null | undefined, words: readonly string[]): boolean {
  if (!text) return false;
  const lower = text.toLowerCase();
  return words.some((word) => lower.includes(word.toLowerCase()));
}
