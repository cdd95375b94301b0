/**
 * What triage reads (spec: POST /v1/posts/triage): recent original English posts with
 * at least 30 likes; "a multi-word plain query is also searched as an exact phrase".
 * Phrase matches come first, then the word matches not already seen.
 */
import type { Context } from "../context.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { DAY_MS } from "../time/durations.ts";

/** The fixed like floor of triage (spec: "a fixed floor of 30 likes"). */
export const TRIAGE_MIN_LIKES = 30;

/** Posts read per search (one page each). */
const PAGE = 100;

/** Whether `query` has more than one word (spec Limits 8: 2 live lookups instead of 1). */
export function isMultiWord(query: string): boolean {
  return query.trim().split(/\s+/).length > 1;
}

/** A query without search operators (quotes, `OR`, `-excluded`), so quoting it is a phrase search. */
export function isPlainQuery(query: string): boolean {
  return !query.includes('"') && !/(^|\s)OR(\s|$)/.test(query) && !/(^|\s)-\S/.test(query);
}

/** The distinct original English posts matching `query` within `maxAgeDays`, phrase matches first. */
export async function searchTopic(ctx: Context, query: string, maxAgeDays: number): Promise<NetworkPost[]> {
  const { network, clock } = ctx.services;
  const since = new Date(clock.now() - maxAgeDays * DAY_MS).toISOString();
  const search = (q: string) => network.search({ query: q, since, minLikes: TRIAGE_MIN_LIKES, lang: "en", originalsOnly: true, limit: PAGE });
  const queries = isMultiWord(query) && isPlainQuery(query) ? [`"${query.trim()}"`, query] : [query];
  const pages = await Promise.all(queries.map(search));
  const seen = new Set<string>();
  const posts: NetworkPost[] = [];
  for (const post of pages.flatMap((page) => page.items)) {
    if (seen.has(post.id)) continue;
    seen.add(post.id);
    // The adapter already filters; this keeps the promise whichever adapter answered.
    if (post.kind !== "post" || post.isThreadContinuation || post.lang !== "en" || post.metrics.likes < TRIAGE_MIN_LIKES) continue;
    posts.push(post);
  }
  return posts;
}
