/**
 * The input and answer of GET /v1/inspiration (supplement: Inspiration; spec: Other
 * endpoints, GET /v1/inspiration). Query numbers arrive as text and are converted by the
 * REST adapter (adapters/http/input_coercion.ts); typed clients send numbers.
 */
import { z } from "zod";
import { commaListOf, listOf, postCounters, timestamp } from "../schema.ts";
import { INSPIRATION_TOPICS } from "./topic_lexicon.ts";

/** The last page the search serves (supplement: "page 1-7"). */
export const LAST_PAGE = 7;

const count = (name: string) =>
  z
    .number({ error: "must be a non-negative integer" })
    .int("must be a non-negative integer")
    .min(0, "must be a non-negative integer")
    .max(Number.MAX_SAFE_INTEGER, "must be a non-negative integer")
    .meta({ description: `Only posts with at least this many ${name}` })
    .optional();

const followers = (description: string) =>
  z
    .number({ error: "must be a non-negative integer" })
    .int("must be a non-negative integer")
    .min(0, "must be a non-negative integer")
    .max(Number.MAX_SAFE_INTEGER, "must be a non-negative integer")
    .meta({ description })
    .optional();

/** The search's query parameters. */
export const inspirationInput = z
  .object({
    q: z
      .string()
      .max(200, "must be at most 200 characters")
      .meta({ description: 'Search text: words, "exact phrases", `or`, `-excluded` (PostgreSQL websearch syntax)' })
      .optional(),
    sort: z
      .enum(["relevant", "recent", "likes", "reposts", "impressions", "outlier"], {
        error: "must be one of relevant, recent, likes, reposts, impressions, outlier",
      })
      .default("relevant")
      .meta({ description: "`relevant` (default; newest first without `q`), `recent`, `likes`, `reposts`, `impressions`, `outlier`" }),
    min_likes: count("likes"),
    min_reposts: count("reposts"),
    min_replies: count("replies"),
    min_bookmarks: count("bookmarks"),
    min_impressions: count("impressions"),
    min_followers: followers("Only authors with at least this many followers"),
    max_followers: followers("Only authors with at most this many followers"),
    since: timestamp.meta({ description: "Posted at or after (ISO-8601 with Z or an offset)" }).optional(),
    until: timestamp.meta({ description: "Posted before (ISO-8601 with Z or an offset)" }).optional(),
    lang: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "must be a language code such as en")
      .default("en")
      .meta({ description: "Language of the posts (BCP 47 code, default en)" }),
    exclude_topics: commaListOf(INSPIRATION_TOPICS)
      .meta({ description: "Comma list of crypto, politics, nsfw, selfpromo: leaves out posts classified with any of them" })
      .optional(),
    min_outlier_score: z
      .number({ error: "must be a number from 0 to 1000" })
      .min(0, "must be a number from 0 to 1000")
      .max(1000, "must be a number from 0 to 1000")
      .meta({ description: "0 to 1000, rounded to 1 decimal; above 0 leaves out posts whose `outlier_score` is null" })
      .optional(),
    limit: z
      .number({ error: "must be an integer from 1 to 50" })
      .int("must be an integer from 1 to 50")
      .min(1, "must be an integer from 1 to 50")
      .max(50, "must be an integer from 1 to 50")
      .default(20)
      .meta({ description: "Page size, 1 to 50 (default 20)" }),
    page: z
      .number({ error: `must be an integer from 1 to ${LAST_PAGE}` })
      .int(`must be an integer from 1 to ${LAST_PAGE}`)
      .min(1, `must be an integer from 1 to ${LAST_PAGE}`)
      .max(LAST_PAGE, `must be an integer from 1 to ${LAST_PAGE}`)
      .default(1)
      .meta({ description: `1-based page, 1 to ${LAST_PAGE} (default 1)` }),
  })
  .prefault({});

/** The validated input. */
export type InspirationInput = z.infer<typeof inspirationInput>;

/** One post of the answer. */
export const inspirationPost = z.object({
  id: z.string(),
  text: z.string(),
  url: z.string(),
  posted_at: z.string(),
  lang: z.string(),
  metrics: postCounters,
  author: z.object({
    x_user_id: z.string(),
    username: z.string(),
    name: z.string(),
    avatar_url: z.string().nullable(),
    followers_count: z.number().int().nullable(),
    verified: z.boolean(),
  }),
  topics: z.array(z.enum(INSPIRATION_TOPICS)),
  outlier_score: z
    .number()
    .nullable()
    .meta({
      description:
        "Engagements (likes + replies + reposts + quotes) per follower divided by the median of that rate among corpus posts " +
        "of the author's follower tier (under 1k, 1k-10k, 10k-100k, 100k-1M, 1M+; 1.0 = expected; 2 decimals); null when the " +
        "follower count is unknown or the tier has fewer than 5 posts to measure",
    }),
});

/** The answer. */
export const inspirationAnswer = listOf(inspirationPost);
