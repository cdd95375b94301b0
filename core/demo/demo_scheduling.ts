/**
 * The scheduling part of the demo world (shared/spec/demo_world.md): one post in each of
 * `draft`, `scheduled` and `sent` on A's main account, and a user whose post quota for the
 * period is used up (`keys.no_post_quota`). Re-runs reuse the posts (found by title) and
 * top the quota user's queue up again after a new billing period.
 */
import type { Services } from "../context.ts";
import type { Sql } from "../db/sql.ts";
import { deductPostQuota, postQuotaOf } from "../post_quota/post_quota.ts";
import { schedulePublication } from "../scheduling/schedule_publication.ts";
import { insertPost, postById, updatePostColumns } from "../scheduling/scheduled_posts_queries.ts";
import { publishNow } from "../scheduling/publish_post.ts";
import { demoPostByTitle } from "./demo_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** The demo's post ids by status. */
export interface DemoScheduledPosts {
  draft: string;
  scheduled: string;
  sent: string;
}

/** Ensures A's three demo posts; answers their ids. */
export async function ensureDemoPosts(services: Services, accountId: string): Promise<DemoScheduledPosts> {
  const { sql, clock } = services;
  const now = new Date(clock.now());
  const draft = await ensurePost(sql, accountId, "Demo draft", () =>
    insertPost(
      sql,
      accountId,
      { status: "draft", parts: [{ text: "A draft saved for later: what I learned shipping a scheduler in a weekend", media: [] }], title: "Demo draft" },
      now,
    ),
  );
  const scheduled = await ensurePost(sql, accountId, "Demo scheduled", () =>
    queuePost(
      sql,
      accountId,
      "Demo scheduled",
      nextTuesdayNine(now),
      [
        "Threads that teach beat threads that brag. Here is how I plan a week of posts in 20 minutes 🧵",
        "1/ Pick one idea per day and write the hook first.",
        "2/ Queue them in your best slots and forget about them.",
      ],
      now,
    ),
  );
  const sent = await ensurePost(sql, accountId, "Demo sent", async () => {
    const id = await queuePost(sql, accountId, "Demo sent", now, ["Shipped: scheduling from scripts and agents is live."], now);
    // Only the simulated world is written to: a demo never posts on a real X account.
    if (services.network.info.kind !== "simulated") return id;
    const row = await postById(sql, id);
    const result = await publishNow({ sql, network: services.network, clock, media: services.media }, { postId: id, version: row!.publish_version });
    // A world seeded with the network switched off (THREADLINE_FAULTS=x) keeps it queued.
    if (result.outcome !== "sent") console.warn(`Demo world: the "sent" demo post stays queued (${JSON.stringify(result)})`);
    return id;
  });
  return { draft: String(draft), scheduled: String(scheduled), sent: String(sent) };
}

/** Queues posts on `accountId` until its owner's post quota for the period is used up. */
export async function useUpPostQuota(services: Services, accountId: string): Promise<void> {
  const { sql, clock } = services;
  const now = new Date(clock.now());
  const quota = await postQuotaOf(sql, accountId, now);
  for (let used = quota.used; used < quota.limit; used++) {
    await queuePost(sql, accountId, "Demo quota filler", new Date(now.getTime() + 300 * DAY_MS), [`Queued for later (${used + 1}/${quota.limit})`], now);
  }
}

async function ensurePost(sql: Sql, accountId: string, title: string, create: () => Promise<number>): Promise<number> {
  return (await demoPostByTitle(sql, accountId, title)) ?? (await create());
}

async function queuePost(sql: Sql, accountId: string, title: string, when: Date, texts: string[], now: Date): Promise<number> {
  return sql.begin(async (tx) => {
    const id = await insertPost(tx, accountId, { status: "scheduled", scheduled_for: when, parts: texts.map((text) => ({ text, media: [] })), title }, now);
    const charge = await deductPostQuota(tx, accountId, [`post:${id}`], { now, reason: "scheduled" });
    await updatePostColumns(tx, id, { quota_period_start: charge.periodStart }, now);
    await schedulePublication(tx, [id]);
    return id;
  });
}

/** Tuesday 09:00 UTC at least two days ahead. */
function nextTuesdayNine(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2, 9));
  day.setUTCDate(day.getUTCDate() + ((2 - day.getUTCDay() + 7) % 7));
  return day;
}
