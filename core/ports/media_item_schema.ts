/**
 * The shapes of `GET /v1/inspiration/media` (supplement "### Inspiration"): the query's
 * enumerations and one library item. Items carry captions, a summary, engagement counts
 * and `source_url`, never a media file or thumbnail URL; only search results carry `score`.
 */
import { z } from "zod";

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
