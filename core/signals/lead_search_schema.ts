/**
 * Input and output of `POST /v1/signals/leads/search` (spec: Other endpoints with stated
 * parameters; supplement: Signals, "POST /v1/signals/leads/search"), one source for the
 * validation, the OpenAPI document and the typed client.
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";
import { icpDescription, leadProfileFields, leadProvenance, precisionMode } from "./signal_schema.ts";

/** Seed angles per search at most (supplement: "2-5 short phrases"; one is accepted too). */
export const MAX_ANGLES = 5;

/** Characters per angle at most: Threadline's bound, room for a phrase and its operators. */
export const MAX_ANGLE_LENGTH = 100;

const ANGLES_MESSAGE = `must be 1 to ${MAX_ANGLES} comma-separated angles, each 1 to ${MAX_ANGLE_LENGTH} characters`;

/** The angles of a `keywords` value: split on commas, trimmed, empty ones and repeats (any casing) dropped. */
export function anglesOf(keywords: string): string[] {
  const angles = keywords
    .split(",")
    .map((angle) => angle.trim().replace(/\s+/g, " "))
    .filter(Boolean);
  return angles.filter((angle, i) => angles.findIndex((other) => other.toLowerCase() === angle.toLowerCase()) === i);
}

const intIn = (min: number, max: number, fallback: number) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback);
};

/** Body of lead search. */
export const leadSearchInput = z.object({
  keywords: z
    .string({ error: ANGLES_MESSAGE })
    .refine((value) => {
      const angles = anglesOf(value);
      return angles.length >= 1 && angles.length <= MAX_ANGLES && angles.every((angle) => angle.length <= MAX_ANGLE_LENGTH);
    }, ANGLES_MESSAGE)
    .meta({
      description: `Comma-separated seed angles: 1 to ${MAX_ANGLES} short phrases, each up to ${MAX_ANGLE_LENGTH} characters`,
      example: "churn, pricing page",
    }),
  icp_description: icpDescription.meta({ description: "Who the leads should be (3-500 characters)", example: "B2B SaaS founders struggling with churn" }),
  offer: z
    .string({ error: "must be a string of 3 to 300 characters" })
    .trim()
    .min(3, "must be at least 3 characters")
    .max(300, "must be at most 300 characters")
    .optional()
    .meta({ description: "What you would offer them (3-300 characters); the judge weighs it" }),
  precision: precisionMode.default("discovery"),
  max_leads: intIn(1, 30, 10).meta({ description: "Leads returned at most (1-30, default 10)" }),
  max_post_age_days: intIn(1, 90, 30).meta({ description: "Only posts this many days old or newer count (1-90, default 30)" }),
  ...accountSelection,
});

/** One lead found by a search: the person, the ICP verdict and the post that surfaced them. */
export const searchedLead = z
  .object({
    ...leadProfileFields,
    icp_score: z.number().int().meta({ description: "Fit with the ICP, 0 to 100" }),
    icp_rationale: z.string().meta({ description: "One line on why" }),
    provenance: leadProvenance,
  })
  .meta({ id: "SearchedLead" });

/** Answer of lead search. */
export const leadSearchOutput = z.object({
  data: z.object({
    leads: z.array(searchedLead).meta({ description: "Best score first, freshest post first within a score" }),
    precision: precisionMode,
    min_score: z.number().int().meta({ description: "The score a lead needed (high 70, discovery 50)" }),
    partial: z.boolean().meta({ description: "True when the time budget or a network failure ended the search before every planned query ran" }),
    queries_used: z.number().int().meta({ description: "Planned queries that were run against the network" }),
    query_plan: z.array(
      z.object({
        query: z.string(),
        angle: z.string().meta({ description: "The seed angle the query came from" }),
        searched: z.boolean().meta({ description: "False when the search ended before this query ran" }),
        posts_found: z.number().int().meta({ description: "Original posts it found inside the age window" }),
        leads_found: z.number().int().meta({ description: "Returned leads whose post came from this query" }),
      }),
    ),
    candidates_judged: z.number().int().meta({ description: "People whose best post was scored against the ICP" }),
    freshness: z.object({
      max_post_age_days: z.number().int(),
      posts_in_window: z.number().int().meta({ description: "Distinct posts found inside the age window" }),
      stale_skipped: z.number().int().meta({ description: "Distinct posts the searches returned that were older than the window" }),
      oldest_skipped_days: z.number().int().nullable().meta({ description: "Age in whole days of the oldest skipped post; null when none was skipped" }),
      search_window_days: z.number().int().meta({ description: "How far back the network's search reaches (X API recent search: 7)" }),
    }),
  }),
  meta: z.object({ credits_charged: z.number().int(), account_id: z.string() }),
});

/** The types. */
export type LeadSearchInput = z.infer<typeof leadSearchInput>;
export type LeadSearchOutput = z.infer<typeof leadSearchOutput>;
