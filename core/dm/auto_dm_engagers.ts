/**
 * The engagement read of auto DMs (docs/areas.md "DM campaigns and auto DM": after the post is sent, people who
 * reply or repost are messaged through the same sender and limits, each person once per
 * post). Every few minutes (a post in batch mode: once an hour, from an hour after it went
 * out), for each sent post with an auto DM on (for a week after it went out), the post's
 * direct replies and reposters are read through the network port and
 * the people not yet in the post's campaign, up to its `max` (and the plan's
 * `per_post_max`), earliest repliers first, are queued with the create's own rules
 * (core/dm/create_campaign.ts): the account itself is never messaged, the month and the
 * rolling day apply, overflow is spread over coming days when the plan schedules. Its own
 * job rather than a hook in the audience sync: it reads one post, not the account's whole
 * engagement, and leaves the sync untouched.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { NetworkError } from "../network/network_errors.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { type AutoDmDueRow, markAutoDmRead, recipientsOfCampaign, sentPostsWithAutoDm } from "./auto_dm_queries.ts";
import { AUTO_DM_READ_MINUTES } from "./auto_dm_schema.ts";
import { enqueueCampaign } from "./create_campaign.ts";
import { dmAllowanceOf } from "./dm_limits.ts";
import { DAY_MS, HOUR_MS } from "../time/durations.ts";

/** How often the engagement of sent posts is read for auto DMs. */
export const DISPATCH_AUTO_DMS_EVERY_SECONDS = AUTO_DM_READ_MINUTES * 60;

/** How far apart a post in batch mode has its engagers queued (the first batch this long after sending). */
const BATCH_MS = HOUR_MS;

/** How long after sending a post's engagement is still read. */
const AUTO_DM_WINDOW_MS = 7 * DAY_MS;

/** Posts one run reads at most (the rest wait for the next run). */
const POSTS_PER_RUN = 200;

/** What the engagement read needs. */
export interface AutoDmDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
}

/** Reads the engagement of every sent post with an auto DM on and queues the new people; answers how many were queued. */
export async function dispatchAutoDms(deps: AutoDmDeps): Promise<number> {
  const now = deps.clock.now();
  let queued = 0;
  const window = { since: new Date(now - AUTO_DM_WINDOW_MS), batchStart: new Date(now - BATCH_MS), limit: POSTS_PER_RUN };
  for (const post of await sentPostsWithAutoDm(deps.sql, window)) {
    try {
      queued += await queueEngagers(deps, post, now);
      await markAutoDmRead(deps.sql, post.post_id, new Date(now));
    } catch (error) {
      // One post's network failure or full allowance waits for the next run; others go on.
      if (!(error instanceof NetworkError || error instanceof ApiError)) throw error;
    }
  }
  return queued;
}

async function queueEngagers(deps: AutoDmDeps, post: AutoDmDueRow, now: number): Promise<number> {
  const { sql, network } = deps;
  const allowance = await dmAllowanceOf(sql, post.account_id);
  if (!allowance) return 0;
  const campaignId = post.campaign_id === null ? undefined : Number(post.campaign_id);
  const already = campaignId === undefined ? new Set<string>() : await recipientsOfCampaign(sql, campaignId);
  const room = Math.min(post.max, allowance.perPostMax) - already.size;
  if (room <= 0) return 0;
  const people: string[] = [];
  if (post.triggers.includes("reply")) {
    const replies = await network.replies(post.first_post_id, { limit: 100 });
    // The first people who replied first (the port lists newest first).
    people.push(...[...replies.items].reverse().map((reply) => reply.authorId));
  }
  if (post.triggers.includes("repost")) {
    const reposters = await network.reposters(post.first_post_id, { limit: 100 });
    people.push(...[...reposters.items].reverse().map((user) => user.id));
  }
  const fresh = [...new Set(people)].filter((id) => id !== post.account_id && !already.has(id)).slice(0, room);
  if (fresh.length === 0) return 0;
  const created = await sql.begin((tx) =>
    enqueueCampaign(tx, {
      accountId: post.account_id,
      allowance,
      now,
      message: post.message,
      recipients: fresh.map((x_user_id) => ({ x_user_id, source_post_id: post.first_post_id })),
      spread: true,
      source: "auto_dm",
      networkWindow: network.info.dmWindow,
      scheduledPostId: Number(post.post_id),
      campaignId,
    }),
  );
  return created.counts.queued;
}
