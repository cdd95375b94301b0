/**
 * The shapes of `GET /v1/inspiration/media` (supplement "### Inspiration"): the query's
 * enumerations and one library item. Items carry captions, a summary, engagement counts
 * and `source_url`, never a media file or thumbnail URL; only search results carry `score`.
 */
import { z } from "zod";
import { commaListOf } from "../schema.ts";

/** The platforms the library covers, in the supplement's order. */
export const MEDIA_PLATFORMS = ["x", "instagram", "youtube", "threads", "reddit", "linkedin"] as const;
export type MediaPlatform = (typeof MEDIA_PLATFORMS)[number];

/** `time_filter` values. */
export const TIME_FILTERS = ["all", "24h", "7d", "30d"] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];

/** `media_type` values. */
export const MEDIA_TYPE_FILTERS = ["all", "video", "image"] as const;
export type MediaTypeFilter = (typeof MEDIA_TYPE_FILTERS)[number];

const count = z.number().int().min(0);

/** One viral media post. */
export const mediaItem = z.object({
  id: z.string().meta({ description: "The library's id of the item" }),
  platform: z.enum(MEDIA_PLATFORMS),
  media_type: z.enum(["video", "image"]),
  content_type: z.string().meta({ description: "Content label, lowercase with `_` between words (e.g. `tutorial`, `meme`)" }),
  caption: z.string(),
  summary: z.string().meta({ description: "What the media shows, in a sentence or two" }),
  engagement: z.object({
    views: count.nullable().meta({ description: "Null where the platform shows no view count" }),
    likes: count.meta({ description: "Likes, reactions or upvotes" }),
    comments: count,
    shares: count.nullable().meta({ description: "Shares, reposts or crossposts; null where the platform shows none" }),
  }),
  author: z.object({ handle: z.string(), name: z.string() }),
  posted_at: z.string().meta({ description: "UTC ISO-8601" }),
  source_url: z.string().meta({ description: "The post on its platform (never a media file or thumbnail URL)" }),
  score: z.number().min(0).max(1).optional().meta({ description: "Search relevance, 0 to 1; present only in search mode" }),
});
export type MediaItem = z.infer<typeof mediaItem>;

const mediaLimit = z
  .number({ error: "must be an integer from 1 to 120" })
  .int("must be an integer from 1 to 120")
  .min(1, "must be an integer from 1 to 120")
  .max(120, "must be an integer from 1 to 120")
  .default(20)
  .meta({ description: "Items to answer, 1 to 120 (default 20); there is no pagination" });

/** `GET /v1/inspiration/media`: owner-scoped, so no `account_id`. */
export const mediaSearchInput = z
  .object({
    q: z.string().max(200, "must be at most 200 characters").meta({ description: "Search text; omitted or blank: browse the newest items" }).optional(),
    platforms: commaListOf(MEDIA_PLATFORMS).optional(),
    time_filter: z.enum(TIME_FILTERS).default("all").meta({ description: "Posted within the last 24 hours, 7 days, 30 days, or any time (default)" }),
    media_type: z.enum(MEDIA_TYPE_FILTERS).default("all").meta({ description: "Videos, images, or both (default)" }),
    content_type: z
      .string()
      .max(64, "must be at most 64 characters")
      .meta({ description: "Content label (`tutorial`, `meme`, `infographic`, ...; case and spaces are ignored); an unknown label matches nothing" })
      .optional(),
    limit: mediaLimit,
  })
  .prefault({});

/** The endpoint's validated input. */
export type MediaSearchInput = z.infer<typeof mediaSearchInput>;
