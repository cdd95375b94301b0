/** `GET /v1/posts/best-times` (beyond the spec): when the account's own posts did best, by weekday and hour. */
import { z } from "zod";
import { timeZoneName } from "../queue/queue_settings_schema.ts";
import { accountSelection } from "../schema.ts";

/** Days read by default, and at most. */
export const DEFAULT_BEST_TIME_DAYS = 90;
export const MAX_BEST_TIME_DAYS = 366;

export const bestTimesInput = z
  .object({
    ...accountSelection,
    days: z
      .number({ error: `must be an integer from 7 to ${MAX_BEST_TIME_DAYS}` })
      .int(`must be an integer from 7 to ${MAX_BEST_TIME_DAYS}`)
      .min(7, `must be an integer from 7 to ${MAX_BEST_TIME_DAYS}`)
      .max(MAX_BEST_TIME_DAYS, `must be an integer from 7 to ${MAX_BEST_TIME_DAYS}`)
      .default(DEFAULT_BEST_TIME_DAYS)
      .meta({ description: `Days of posts to read, ending now: 7 to ${MAX_BEST_TIME_DAYS} (default ${DEFAULT_BEST_TIME_DAYS})` }),
    timezone: timeZoneName.optional().meta({ description: "IANA time zone of the weekdays and hours (default: the account's queue time zone)" }),
  })
  .prefault({});
export type BestTimesInput = z.infer<typeof bestTimesInput>;

const slot = z.object({
  weekday: z.number().int().min(1).max(7).meta({ description: "ISO weekday in `timezone`: 1 Monday to 7 Sunday" }),
  hour: z.number().int().min(0).max(23).meta({ description: "Hour of the day in `timezone`, 0 to 23" }),
  posts: z.number().int().meta({ description: "Posts published in this hour of this weekday" }),
  avg_impressions: z.number(),
  avg_engagements: z.number().meta({ description: "Likes, replies, reposts, quotes and bookmarks per post" }),
  engagement_rate: z.number().nullable().meta({ description: "Engagements over impressions; null without impressions" }),
  score: z.number().meta({
    description:
      "Impressions per post, pulled toward the account's average with the weight of 3 posts, over that average: 1 is average, 1.5 is half again as good",
  }),
});

export const bestTimes = z
  .object({
    timezone: z.string(),
    since: z.string(),
    until: z.string(),
    posts: z.number().int().meta({ description: "Posts read: originals, quotes and thread starts (replies and reposts are not counted)" }),
    avg_impressions: z.number().meta({ description: "The account's average impressions per post over the range" }),
    slots: z.array(slot).meta({ description: "Every weekday and hour with at least one post, by weekday then hour" }),
    best: z.array(slot).meta({ description: "Up to 5 slots with at least 3 posts each, best score first: the times to post" }),
  })
  .meta({ id: "BestTimes" });
export type BestTimes = z.infer<typeof bestTimes>;
