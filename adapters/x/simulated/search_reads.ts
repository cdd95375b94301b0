/**
 * Recent search: the day indexes of the generated world (search_index.ts) plus the posts
 * Threadline's users wrote, filtered the same way, newest first. By default the last 7
 * days (as X's recent search); `since` may reach back `searchWindowDays`.
 */
import type { NetworkPost, Page } from "../../../core/network/network_records.ts";
import type { SearchOptions } from "../../../core/network/social_network.ts";
import { isAfter, keysetPage, pageSize, readTimeCursor } from "./paging.ts";
import { LANGS } from "./population.ts";
import { finishPosts, writtenRefs } from "./post_reads.ts";
import type { PostRef } from "./post_refs.ts";
import { scanDays } from "./scan_days.ts";
import { buildDayIndex, searchDay, type SearchFilters } from "./search_index.ts";
import { clauseMatches, parseSearchQuery, tokenize } from "./search_query.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { dayOf, parseTime } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { deletedPostIds, writtenForSearch } from "./written_queries.ts";

/** Posts matching `options.query`, newest first. */
export async function searchPage(ctx: SimulatedContext, options: SearchOptions): Promise<Page<NetworkPost>> {
  const now = ctx.clock.now();
  const limit = pageSize(options.limit, 20, 100);
  const cursor = readTimeCursor(options.cursor);
  const clauses = parseSearchQuery(options.query);
  if (clauses.length === 0) return { items: [] };
  const oldest = now - ctx.searchWindowDays * DAY_MS;
  const filters: SearchFilters = {
    sinceMs: Math.max(parseTime(options.since) ?? now - 7 * DAY_MS, oldest),
    untilMs: Math.min(now + 1, parseTime(options.until) ?? now + 1),
    minLikes: options.minLikes,
    lang: options.lang === undefined ? undefined : (LANGS as readonly string[]).indexOf(options.lang.toLowerCase()),
    originalsOnly: options.originalsOnly,
  };
  if (filters.sinceMs >= filters.untilMs || filters.lang === -1) return { items: [] };
  const deleted = await deletedPostIds(ctx.sql);
  const keep = (ref: PostRef) => isAfter(ref, cursor) && !deleted.has(ref.id);
  const top = Math.min(filters.untilMs - 1, cursor?.ms ?? Number.POSITIVE_INFINITY);
  const generated = scanDays(dayOf(top), dayOf(filters.sinceMs), limit + 1, keep, (day) =>
    searchDay(
      ctx.searchDays.get(day, () => buildDayIndex(ctx.world, day)),
      clauses,
      filters,
      now,
    ),
  );
  const rows = (await writtenForSearch(ctx.sql, filters.sinceMs, Math.min(filters.untilMs, now + 1))).filter((row) => {
    if (filters.originalsOnly && (row.kind !== "post" || row.is_thread_continuation)) return false;
    const tokens = tokenize(row.text);
    return clauses.some((clause) => clauseMatches(clause, tokens));
  });
  const written = (await writtenRefs(ctx, rows)).filter((ref) => {
    if (!keep(ref)) return false;
    const post = ref.build(now);
    return (filters.lang === undefined || post.lang === options.lang) && (!filters.minLikes || post.metrics.likes >= filters.minLikes);
  });
  const chosen = keysetPage([...generated, ...written], limit, (ref) => ref);
  const items = await finishPosts(ctx, chosen.items, now);
  return chosen.nextCursor ? { items, nextCursor: chosen.nextCursor } : { items };
}
