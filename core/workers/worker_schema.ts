/**
 * The Worker and Worker suggestion records and their enumerations (spec: Worker
 * suggestion, Worker (list shape), States of Worker suggestion). Bounds are written once
 * here and shared by the endpoints, the store and the OpenAPI document.
 */
import { z } from "zod";
import { accountSelection, integerId, paginationInput, timestamp } from "../schema.ts";

/** What a Worker writes from (spec: `shape`, the Worker's last key). */
export const WORKER_SHAPES = ["formats", "niche", "fresh"] as const;
/** A Worker's shape. */
export type WorkerShape = (typeof WORKER_SHAPES)[number];

/** Where a Worker's topic comes from. */
export const TOPIC_SOURCES = ["product", "custom", "niche"] as const;
/** A Worker's topic source. */
export type TopicSource = (typeof TOPIC_SOURCES)[number];

/**
 * The style mode's two values (spec: "style mode (two values)"): write in the voice
 * from the topic, or remix a reference post (every niche-shaped Worker).
 */
export const STYLE_MODES = ["voice_match", "reference_remix"] as const;
/** A Worker's style mode. */
export type StyleMode = (typeof STYLE_MODES)[number];

/** Whose voice a Worker writes in (the values of `POST /v1/posts/draft` `voice`). */
export const WORKER_VOICES = ["mine", "creator", "hybrid"] as const;
/** A Worker's voice. */
export type WorkerVoice = (typeof WORKER_VOICES)[number];

/** The states of a suggestion (spec: States, Worker suggestion). */
export const SUGGESTION_STATUSES = ["to_review", "drafted", "scheduled", "dismissed"] as const;
/** A suggestion's status. */
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

/** Suggestions a Worker writes per run, at most. */
export const MAX_BATCH_SIZE = 10;

/** A Worker as `GET /v1/workers` lists it; `shape` is the last key (spec: Worker (list shape)). */
export const worker = z.object({
  id: z.number().int(),
  account_id: z.string(),
  name: z.string(),
  active: z.boolean(),
  voice: z.enum(WORKER_VOICES).meta({ description: "`mine`, `creator` or `hybrid` (the account's own posts, a creator's, or both)" }),
  creator: z.string().nullable().meta({ description: "The creator's handle when `voice` is `creator` or `hybrid`" }),
  topic_source: z.enum(TOPIC_SOURCES),
  topic_config: z
    .object({
      product_id: z.number().int().optional(),
      topic: z.string().optional(),
      keywords: z.array(z.string()).optional(),
    })
    .meta({ description: "`product_id` (product source), `topic` (custom source), `keywords` (niche source, and every niche-shaped Worker)" }),
  style_mode: z.enum(STYLE_MODES).meta({ description: "`reference_remix` on every niche-shaped Worker" }),
  batch_size: z.number().int(),
  schedule: z.object({
    days: z.array(z.number().int()).meta({ description: "Weekdays, 0 = Sunday" }),
    time: z.string().meta({ description: "Wall time `HH:MM` in `timezone`" }),
  }),
  timezone: z.string(),
  next_run_at: z.string().nullable().meta({ description: "Next run (UTC); null while the Worker is paused" }),
  shape: z.enum(WORKER_SHAPES),
});

/** The Worker record. */
export type Worker = z.infer<typeof worker>;

/** A suggestion's `reference`: the kind of source only; ids stay private (spec: Worker suggestion). */
export const suggestionReference = z
  .object({
    source: z.string().meta({ description: "`format`, `popular_post`, `product` or `context`" }),
    fallback: z.literal(true).optional().meta({ description: "A niche Worker found no usable popular post and wrote from a proven format" }),
  })
  .nullable();

/** The Worker suggestion record (spec: Worker suggestion). */
export const workerSuggestion = z.object({
  id: z.number().int(),
  worker_id: z.number().int(),
  text: z.string(),
  status: z.enum(SUGGESTION_STATUSES),
  reference: suggestionReference,
  generated_at: z.string(),
  drafted_at: z.string().nullable(),
  scheduled_at: z.string().nullable(),
  dismissed_at: z.string().nullable(),
  post_id: z.string().nullable().meta({ description: "Set once saved as a post; joins to `GET /v1/scheduled-posts`" }),
});

/** The Worker suggestion record. */
export type WorkerSuggestion = z.infer<typeof workerSuggestion>;

const STATUS_FILTERS = [...SUGGESTION_STATUSES, "all"] as const;
const suggestionId = integerId.meta({ description: "Suggestion id", example: 42 });

/** `GET /v1/workers`: only the account (not paginated). */
export const listWorkersInput = z.object({ ...accountSelection }).prefault({});

/** `GET /v1/workers/suggestions`. */
export const listSuggestionsInput = z
  .object({
    ...accountSelection,
    status: z
      .enum(STATUS_FILTERS, { error: `must be one of ${STATUS_FILTERS.join(", ")}` })
      .default("to_review")
      .meta({ description: "to_review (default), drafted, scheduled, dismissed or all" }),
    worker_id: integerId.optional().meta({ description: "Only this Worker's suggestions (404 worker_not_found when not the account's)" }),
    ...paginationInput(20),
  })
  .prefault({});

/** The list's filters, parsed. */
export type ListSuggestionsInput = z.infer<typeof listSuggestionsInput>;

/** A suggestion addressed by id (`POST .../draft` and `.../dismiss`). */
export const suggestionByIdInput = z.object({ id: suggestionId, ...accountSelection });

/** `POST /v1/workers/suggestions/{id}/schedule`. */
export const scheduleSuggestionInput = z.object({ id: suggestionId, scheduled_for: timestamp, ...accountSelection });

/** What a save sends: a draft's input, or a schedule's with `scheduled_for`. */
export type SaveSuggestionInput = z.infer<typeof suggestionByIdInput> & Partial<Pick<z.infer<typeof scheduleSuggestionInput>, "scheduled_for">>;

/** A dismiss's input. */
export type SuggestionByIdInput = z.infer<typeof suggestionByIdInput>;
