/**
 * Inputs and outputs of `POST /v1/posts/triage` and `POST /v1/posts/viral-score` (spec:
 * Other endpoints with stated parameters; supplement: Content), one source for the
 * validation, the OpenAPI document and the typed client.
 */
import { z } from "zod";
import { accountSelection, timestamp } from "../schema.ts";
import { POST_KINDS } from "./triage_classifier.ts";

/** Body of triage: `query` 2-80 characters, `max_age_days` 1-7 (default 3). */
export const triageInput = z.object({
  query: z.string().trim().min(2, "must be 2 to 80 characters").max(80, "must be 2 to 80 characters"),
  max_age_days: z
    .number({ error: "must be an integer from 1 to 7" })
    .int("must be an integer from 1 to 7")
    .min(1, "must be an integer from 1 to 7")
    .max(7, "must be an integer from 1 to 7")
    .default(3),
  ...accountSelection,
});

const meta = z.object({ credits_charged: z.number().int(), account_id: z.string() });
const flag = (description: string) => z.boolean().meta({ description });

/** A triage request after validation. */
export type TriageInput = z.infer<typeof triageInput>;

/** Answer of triage. */
export const triageOutput = z.object({
  data: z.object({
    query: z.string(),
    max_age_days: z.number().int(),
    posts: z.array(
      z.object({
        id: z.string(),
        url: z.string(),
        text: z.string(),
        created_at: z.string(),
        lane: z.enum(["read", "pass", "unsure"]),
        pct: z.number().int().meta({ description: "50-99 on read and pass; the raw worth-reading score (0-100) on unsure" }),
        kind: z.enum(POST_KINDS),
        answers: z.object({
          r_specific: flag("Specific and informative"),
          r_new: flag("Says something new for the topic"),
          r_bait: flag("Engagement bait"),
          r_plug: flag("A plug: links and product mentions"),
          r_platitude: flag("A platitude"),
          r_reply_room: flag("Room to add something in a reply"),
        }),
        signals: z.array(z.string()).meta({ description: "The measured signals the verdict rests on" }),
        metrics: z.object({ likes: z.number(), replies: z.number(), reposts: z.number(), quotes: z.number(), views: z.number() }),
        author: z.object({
          id: z.string(),
          username: z.string().nullable(),
          name: z.string().nullable(),
          avatar_url: z.string().nullable(),
          followers_count: z.number().nullable(),
          verified: z.boolean(),
        }),
      }),
    ),
    posts_searched: z.number().int(),
    receipt: z.object({
      posts_judged: z.number().int(),
      questions_answered: z.number().int(),
      ms: z.number().int(),
      model_spend: z.number(),
      judge: z.string(),
    }),
  }),
  meta: meta.extend({ live_lookups: z.number().int() }),
});

/** Body of viral score. */
export const viralScoreInput = z.object({
  text: z.string().min(1, "must be 1 to 4000 characters").max(4_000, "must be 1 to 4000 characters"),
  has_image: z.boolean().optional(),
  has_video: z.boolean().optional(),
  is_quote: z.boolean().optional(),
  post_at: timestamp.optional(),
  baseline: z.enum(["account", "population"]).default("account"),
  ...accountSelection,
});

const counter = z.object({
  median_multiple: z.number(),
  p75: z.number(),
  p90: z.number(),
  expected: z.number().nullable(),
  confidence: z.enum(["normal", "low"]),
});
const counters = z.object({ likes: counter, replies: counter, reposts_and_quotes: counter, views: counter });
const effect = z.object({
  feature: z.string(),
  label: z.string(),
  effect: z.number().meta({ description: "Multiplier on expected likes" }),
  by_counter: z.object({ likes: z.number(), replies: z.number(), reposts_and_quotes: z.number(), views: z.number() }),
});

/** The viral score input after validation. */
export type ViralScoreInput = z.infer<typeof viralScoreInput>;

/** Answer of viral score. */
export const viralScoreOutput = z.object({
  data: z.object({
    score: z.number().int().meta({ description: "0-100: the chance the draft beats the account's median post (likes)" }),
    counters,
    helped: z.array(effect),
    hurt: z.array(effect),
    warnings: z.array(z.string()),
    accuracy: z.number().nullable().meta({ description: "0-1 back-test on held-out own posts; null on the population baseline" }),
    backtest: z.object({ method: z.string(), held_out_posts: z.number().int(), direction_hit_rate: z.number(), within_p25_p75: z.number() }).nullable(),
    baseline: z.object({
      kind: z.enum(["account", "population"]),
      requested: z.enum(["account", "population"]),
      posts_used: z.number().int(),
      usable_posts: z.number().int(),
      window: z.object({ since: z.string(), until: z.string() }).nullable(),
      medians: z.record(z.string(), z.number()).nullable(),
      best_hours_utc: z.array(z.number().int()).nullable(),
      tier: z.object({ followers: z.number(), engagement_rate: z.number(), typical_engagements: z.number() }),
    }),
  }),
  meta,
});
