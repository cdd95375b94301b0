/**
 * The Scheduled post record and its inputs (spec: Scheduled post, States, Scheduling,
 * Constants; supplement: Scheduling). Bounds are written once here and shared by create,
 * update and the OpenAPI document.
 */
import { autoDmView } from "../dm/auto_dm_schema.ts";
import { z } from "zod";
import { tagColor } from "../tags/tag_schema.ts";

/** Thread length (spec: Constants). */
export const MAX_PARTS = 25;
/** Total text of a thread (supplement: Scheduling, `parts`). */
export const MAX_TOTAL_TEXT = 25_000;
/** Tag ids on one post (spec: Constants). */
export const MAX_POST_TAGS = 20;

/** The statuses a post reads back with (spec: States; `error` is the supplement's fourth). */
export const POST_STATUSES = ["draft", "scheduled", "sent", "error"] as const;

/** A post's status. */
export type PostStatus = (typeof POST_STATUSES)[number];

/** A scheduled post id in a path: the decimal id. */
export const postId = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, "must be a scheduled post id (digits)")
  .meta({ description: "Scheduled post id", example: "42" });

/** A scheduled post id in a body: the decimal string answers carry, or the same number (`"42"` or `42`). */
export const postIdInBody = z
  .union([postId, z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).transform(String)], {
    error: "must be a scheduled post id (digits, as a string or a number)",
  })
  .meta({ description: "Scheduled post id (a decimal string or a number)", example: "42" });

/** One media item of a part (spec: `parts[].media`). */
export const partMediaInput = z.object({
  object_key: z.string().min(1, "must not be empty").max(300, "must be at most 300 characters").meta({ description: "`object_key` from `POST /v1/media`" }),
  alt_text: z.string().max(1000, "must be at most 1000 characters").optional(),
});

/** One part of a thread as sent; a part sent with media and no text has empty text. */
export const partInput = z.object({
  text: z.string().default("").meta({ description: "May be empty when the part has media" }),
  media: z.array(partMediaInput).max(4, "must have at most 4 items (4 images or 1 GIF)").optional(),
});

/** `parts`: 1 to 25 parts, 25,000 characters in all. */
export const partsInput = z
  .array(partInput)
  .min(1, "must have at least 1 part")
  .max(MAX_PARTS, `must have at most ${MAX_PARTS} parts`)
  .refine((parts) => parts.reduce((sum, part) => sum + part.text.length, 0) <= MAX_TOTAL_TEXT, `must have at most ${MAX_TOTAL_TEXT} characters of text in all`);

/** `auto_retweet` (supplement: Scheduling): repost after 1-12 hours, optionally undo it later. */
export const autoRetweetInput = z.object({
  after_hours: z.number().int("must be an integer from 1 to 12").min(1, "must be an integer from 1 to 12").max(12, "must be an integer from 1 to 12"),
  remove_after_hours: z
    .number()
    .int("must be an integer from 1 to 12")
    .min(1, "must be an integer from 1 to 12")
    .max(12, "must be an integer from 1 to 12")
    .optional(),
});

/** `auto_delete` (supplement: Scheduling): delete after 1-12 hours unless it passed `threshold` views. */
export const autoDeleteInput = z.object({
  after_hours: z.number().int("must be an integer from 1 to 12").min(1, "must be an integer from 1 to 12").max(12, "must be an integer from 1 to 12"),
  threshold: z
    .number()
    .int("must be a non-negative integer")
    .min(0, "must be a non-negative integer")
    .max(1_000_000_000)
    .optional()
    .meta({ description: "Views; default 1000" }),
});

/**
 * `auto_plug` (supplement: Scheduling, "`{ template_id, threshold (likes, required) }` or
 * `null`"): reply with a plug template once the first part has `threshold` likes. The
 * 1..1,000,000 bound is chosen here; a template outside the workspace is
 * `400 unknown_plug_template` (checked against the database, not here).
 */
export const autoPlugInput = z.object({
  template_id: z
    .string({ error: "must be a plug template id (GET /v1/plug-templates)" })
    .min(1, "must be a plug template id (GET /v1/plug-templates)")
    .max(40, "must be a plug template id (GET /v1/plug-templates)"),
  threshold: z
    .number({ error: "must be an integer from 1 to 1000000 (likes)" })
    .int("must be an integer from 1 to 1000000 (likes)")
    .min(1, "must be an integer from 1 to 1000000 (likes)")
    .max(1_000_000, "must be an integer from 1 to 1000000 (likes)")
    .meta({ description: "Likes of the first part" }),
});

/** A tag on a post, as read back. */
export const postTag = z.object({ id: z.number().int(), name: z.string(), color: tagColor });

/** A Scheduled post as every endpoint answers it. */
export const scheduledPost = z.object({
  id: z.string(),
  account_id: z.string(),
  status: z.enum(POST_STATUSES),
  scheduled_for: z.string().nullable().meta({ description: "When it goes out; a draft may keep a planned time (it is not queued)" }),
  parts: z.array(
    z.object({
      text: z.string(),
      media: z.array(z.object({ object_key: z.string(), alt_text: z.string().nullable() })),
    }),
  ),
  title: z.string().nullable(),
  scratchpad: z.string().nullable(),
  tags: z.array(postTag),
  auto_retweet: z.object({ after_hours: z.number().int(), remove_after_hours: z.number().int().nullable() }).nullable(),
  auto_delete: z.object({ after_hours: z.number().int(), threshold: z.number().int() }).nullable(),
  auto_plug: z.object({ template_id: z.string(), threshold: z.number().int() }).nullable(),
  auto_dm: autoDmView,
  auto_dm_skipped: z
    .literal(true)
    .optional()
    .meta({ description: "Present on a create or PATCH whose `auto_dm` a plan cap stripped (the post was saved without it)" }),
  super_followers_only: z.boolean(),
  posted_at: z.string().nullable().meta({ description: "When it was sent" }),
  x_post_id: z.string().nullable().meta({ description: "The network id of the first part, once sent" }),
  x_post_ids: z.array(z.string()).meta({ description: "The network ids of every part, in order, once sent" }),
  url: z.string().nullable(),
  error: z.string().nullable().meta({ description: "Why publishing failed (status `error`)" }),
  created_at: z.string(),
  updated_at: z.string(),
  warnings: z
    .array(z.object({ code: z.literal("x_url_price"), message: z.string() }))
    .optional()
    .meta({
      description:
        "Beyond the spec: present when a part's text holds a URL (`x_url_price`): X's pay-per-use pricing charges a post with a URL about 13 times a plain post's price (docs/x.md \"X's prices and your budget\")",
    }),
});

/** A Scheduled post. */
export type ScheduledPost = z.infer<typeof scheduledPost>;
