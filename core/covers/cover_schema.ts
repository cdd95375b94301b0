/**
 * The shapes of the cover endpoints (spec: `POST /v1/articles/{id}/cover`; supplement:
 * Articles "cover" row, section 5 `GET /v1/cover-styles`).
 */
import { z } from "zod";
import { accountSelection, paginationInput } from "../schema.ts";

/** An article id in a path (spec Article: `id` string; digits here). */
export const coverArticleId = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, "must be an article id (digits)")
  .meta({ description: "Article id", example: "42" });

/** A saved cover style id, as a string of digits or an integer. */
export const coverStyleId = z
  .union([z.string().regex(/^[1-9][0-9]{0,17}$/), z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)], { error: "must be a cover style id (digits)" })
  .meta({ description: "Id of a saved cover style (`GET /v1/cover-styles`)", example: "1" });

/** Where a generation is in its life. */
export const COVER_STATUSES = ["queued", "running", "done", "failed", "timed_out"] as const;

/** The body of `POST /v1/articles/{id}/cover` (supplement: `{ style_text? (max 8000), style_id?, attach? }`). */
export const coverRequestInput = z
  .object({
    id: coverArticleId,
    style_text: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(8000, "must be at most 8000 characters")
      .optional()
      .meta({ description: "How the cover should look, in words (instead of `style_id`)" }),
    style_id: coverStyleId.optional(),
    attach: z.boolean({ error: "must be true or false" }).default(true).meta({ description: "Set the finished image as the article's cover (default true)" }),
    ...accountSelection,
  })
  // Supplement: "both style fields: 400".
  .refine((input) => input.style_text === undefined || input.style_id === undefined, {
    path: ["style_id"],
    message: "must not be sent together with style_text",
  });

/** What a cover request asked for. */
export type CoverRequestInput = z.infer<typeof coverRequestInput>;

/** One cover generation, as the 202 answer and the status read show it. */
export const coverGeneration = z.object({
  id: z.string().meta({ description: "Generation id" }),
  article_id: z.string().nullable().meta({ description: "Null once the article was deleted" }),
  account_id: z.string(),
  status: z
    .enum(COVER_STATUSES)
    .meta({ description: "`queued`, `running`, then `done`, `failed` (credits refunded) or `timed_out` (504 semantics; credits kept)" }),
  attach: z.boolean(),
  attached: z.boolean().meta({ description: "True once the image is the article's cover" }),
  style_id: z.string().nullable(),
  cover: z
    .object({ url: z.string(), object_key: z.string() })
    .nullable()
    .meta({ description: "The generated image once `done`: a media upload of the workspace (`object_key` attaches it to posts too)" }),
  error: z
    .object({ code: z.string(), status: z.number().int(), message: z.string() })
    .nullable()
    .meta({ description: "On `failed` and `timed_out`: the error a synchronous call would have answered" }),
  credits_charged: z.number().int().nullable().meta({ description: "Credits kept once settled (25, or 0 after a refund); null until then" }),
  model: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

/** A cover generation record. */
export type CoverGeneration = z.infer<typeof coverGeneration>;

/** What `GET /v1/articles/{id}/cover` answers: the article's cover and its latest generation. */
export const coverStatus = z.object({
  article_id: z.string(),
  cover: z.object({ url: z.string() }).nullable().meta({ description: "The article's cover now (an attached AI cover or one set by PATCH)" }),
  latest_generation: coverGeneration.nullable(),
});

/** `covers.status` (tRPC only): the article whose cover is polled (`account_id` narrows the search). */
export const coverStatusInput = z.object({ id: coverArticleId, ...accountSelection });

/** What a status poll sends. */
export type CoverStatusInput = z.infer<typeof coverStatusInput>;

/** `GET /v1/cover-styles`: the page. */
export const listCoverStylesInput = z.object({ ...accountSelection, ...paginationInput(50) }).prefault({});

/** The styles page's input, parsed. */
export type ListCoverStylesInput = z.infer<typeof listCoverStylesInput>;

/** A saved cover style. */
export const coverStyle = z.object({
  id: z.string(),
  name: z.string(),
  style_text: z.string(),
  built_in: z.boolean().meta({ description: "True for the server's built-in styles every workspace sees" }),
  created_at: z.string(),
});

/** A cover style record. */
export type CoverStyle = z.infer<typeof coverStyle>;
