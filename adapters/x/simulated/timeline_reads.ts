/**
 * Newest-first lists walked a UTC day at a time: a person's timeline, their mentions,
 * and a list's posts. Each merges the generated world with what Threadline's users
 * wrote, and pages by keyset (time and id) so arrivals never shift a page.
 */
import { NetworkPrivateError } from "../../../core/network/network_errors.ts";
import type { NetworkPost, Page, PageRequest, WindowPageRequest } from "../../../core/network/network_records.ts";
import type { TimelineOptions } from "../../../core/network/social_network.ts";
import { requirePublicList } from "./list_reads.ts";
import { isAfter, keysetPage, pageSize, readTimeCursor, type TimeKey } from "./paging.ts";
import { idOfPerson, requirePerson } from "./people.ts";
import { authoredOn, mentionsOn } from "./person_days.ts";
import { finishPosts, usernameLookup, writtenRefs } from "./post_reads.ts";
import { originalRef, type PostRef } from "./post_refs.ts";
import { scanDays } from "./scan_days.ts";
import type { SimulatedContext } from "./simulated_context.ts";
import { dayOf, parseTime } from "./time_units.ts";
import { DAY_MS } from "../../../core/time/durations.ts";
import { writtenEngagementRef, writtenEngagements, writtenReplyBack, writtenReplyBackRef } from "./written_posts.ts";
import { deletedPostIds, writtenByAuthors, writtenInRange, writtenMentioning, type WrittenPostRow } from "./written_queries.ts";

/** How far back timelines reach (X serves about the last 3,200 posts; a year covers the analytics range). */
const TIMELINE_DAYS = 400;
const MENTION_DAYS = 90;
const LIST_DAYS = 30;

interface Window {
  now: number;
  sinceMs: number;
  /** Exclusive. */
  untilMs: number;
  cursor: TimeKey | undefined;
  limit: number;
}

/** The window a list reads: `days` back from its upper end (so an older `until` reaches older posts). */
function windowOf(ctx: SimulatedContext, options: WindowPageRequest, days: number, floor = 0): Window {
  const now = ctx.clock.now();
  const untilMs = Math.min(now + 1, parseTime(options.until) ?? now + 1);
  const horizon = Math.max(untilMs - days * DAY_MS, floor);
  return {
    now,
    sinceMs: Math.max(parseTime(options.since) ?? horizon, horizon),
    untilMs,
    cursor: readTimeCursor(options.cursor),
    limit: pageSize(options.limit, 20, 100),
  };
}

/** A person's posts, replies and reposts, newest first. */
export async function timelinePage(ctx: SimulatedContext, userId: string, options: TimelineOptions = {}): Promise<Page<NetworkPost>> {
  const person = await requirePerson(ctx, userId);
  const { world } = ctx;
  if (person.kind === "world" && world.pop.isProtected[person.index]) throw new NetworkPrivateError("user", userId);
  const window = windowOf(ctx, options, TIMELINE_DAYS, person.kind === "world" ? world.pop.createdMs[person.index] : 0);
  const kinds = { replies: !options.excludeReplies, reposts: !options.excludeReposts, quotes: true };
  const keep = await keeper(ctx, window);
  const generated = person.kind === "world" ? scan(window, keep, (day) => authoredOn(world, person.index, day, window.now, kinds)) : [];
  const writtenKinds: WrittenPostRow["kind"][] = ["post", "quote", ...(kinds.replies ? ["reply" as const] : []), ...(kinds.reposts ? ["repost" as const] : [])];
  const rows = await writtenByAuthors(ctx.sql, [idOfPerson(ctx, person)], {
    sinceMs: window.sinceMs,
    nowMs: window.now,
    before: window.cursor ?? { ms: window.untilMs, id: "" },
    limit: window.limit + 1,
    kinds: writtenKinds,
  });
  return page(ctx, window, [...generated, ...(await writtenRefs(ctx, rows)).filter(keep)]);
}

/** Posts answering or naming a person, newest first (90 days back at most). */
export async function mentionsPage(ctx: SimulatedContext, userId: string, options: WindowPageRequest = {}): Promise<Page<NetworkPost>> {
  const person = await requirePerson(ctx, userId);
  const { world } = ctx;
  const window = windowOf(ctx, options, MENTION_DAYS);
  const keep = await keeper(ctx, window);
  const generated = person.kind === "world" ? scan(window, keep, (day) => mentionsOn(world, person.index, day, window.now)) : [];
  const id = idOfPerson(ctx, person);
  const refs = await writtenRefs(ctx, await writtenMentioning(ctx.sql, id, window.sinceMs, window.untilMs));
  // What the world said back to this person's own written posts and replies.
  const usernameOf = usernameLookup(ctx);
  for (const row of await writtenInRange(ctx.sql, id, window.sinceMs - 2 * DAY_MS, window.untilMs)) {
    for (const event of writtenEngagements(world, row)?.events ?? []) {
      if (event.action === 1) refs.push(writtenEngagementRef(world, row, event, usernameOf));
    }
    const answer = writtenReplyBack(world, row);
    if (answer) refs.push(writtenReplyBackRef(world, row, answer, usernameOf));
  }
  return page(ctx, window, [...generated, ...refs.filter(keep)]);
}

/** Posts by a public list's members, newest first (30 days back at most). */
export async function listPostsPage(ctx: SimulatedContext, listId: string, options: PageRequest = {}): Promise<Page<NetworkPost>> {
  const list = requirePublicList(ctx, listId);
  const { world } = ctx;
  const window = windowOf(ctx, options, LIST_DAYS);
  const keep = await keeper(ctx, window);
  const generated = scan(window, keep, (day) =>
    [...list.members].flatMap((member) =>
      world
        .originals(member, day)
        .filter((post) => post.ms <= window.now)
        .map((post) => originalRef(world, post)),
    ),
  );
  const rows = await writtenByAuthors(
    ctx.sql,
    [...list.members].map((member) => world.pop.ids[member]),
    {
      sinceMs: window.sinceMs,
      nowMs: window.now,
      before: window.cursor ?? { ms: window.untilMs, id: "" },
      limit: window.limit + 1,
      kinds: ["post", "quote"],
    },
  );
  return page(ctx, window, [...generated, ...(await writtenRefs(ctx, rows)).filter(keep)]);
}

async function keeper(ctx: SimulatedContext, window: Window): Promise<(ref: PostRef) => boolean> {
  const deleted = await deletedPostIds(ctx.sql);
  return (ref) => ref.ms >= window.sinceMs && ref.ms < window.untilMs && ref.ms <= window.now && isAfter(ref, window.cursor) && !deleted.has(ref.id);
}

function scan(window: Window, keep: (ref: PostRef) => boolean, refsOn: (day: number) => PostRef[]): PostRef[] {
  const top = Math.min(window.untilMs - 1, window.cursor?.ms ?? Number.POSITIVE_INFINITY, window.now);
  return scanDays(dayOf(top), dayOf(window.sinceMs), window.limit + 1, keep, refsOn);
}

async function page(ctx: SimulatedContext, window: Window, refs: PostRef[]): Promise<Page<NetworkPost>> {
  const chosen = keysetPage(refs, window.limit, (ref) => ref);
  const items = await finishPosts(ctx, chosen.items, window.now);
  return chosen.nextCursor ? { items, nextCursor: chosen.nextCursor } : { items };
}
