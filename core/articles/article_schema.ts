/**
 * The Article record and its inputs (spec: Article, States (Article), Articles, Constants;
 * supplement: Articles, C5). Bounds are written once here and shared by the endpoints and
 * the OpenAPI document.
 */
import { z } from "zod";
import { accountSelection, commaListOf, paginationInput, timestamp } from "../schema.ts";

/** Title bounds (supplement: Articles, `title (1-300)`; spec Constants: titles 300 chars). */
export const MAX_TITLE = 300;
/** Body bound, chosen here: a long read is well under 100,000 characters of Markdown. */
export const MAX_MARKDOWN = 100_000;
/** "Article schedule lead time: more than 2 minutes" (spec: Constants). */
export const SCHEDULE_LEAD_MS = 120_000;
/** The latest time an article may be scheduled for, as scheduled posts (supplement: Scheduling, 18 months). */
export const MAX_SCHEDULE_MONTHS = 18;

/**
 * Statuses an article reads back with: the spec's three, plus `publishing` while a
 * publication is in flight or its outcome is being reconciled with the network.
 */
export const ARTICLE_STATUSES = ["draft", "scheduled", "publishing", "published"] as const;

/** List filter values (supplement C5): the statuses plus `failed`, drafts whose last publication failed. */
export const ARTICLE_FILTERS = ["draft", "scheduled", "publishing", "published", "failed"] as const;

/** An article id in a path: the decimal id. */
export const articleId = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, "must be an article id (digits)")
  .meta({ description: "Article id", example: "7" });

/** `title`: 1 to 300 characters, not only spaces. */
export const titleInput = z
  .string()
  .max(MAX_TITLE, `must be at most ${MAX_TITLE} characters`)
  .refine((title) => title.trim() !== "", "must not be empty");

/** `content_markdown`: the body as Markdown, up to 100,000 characters. */
export const markdownInput = z.string().max(MAX_MARKDOWN, `must be at most ${MAX_MARKDOWN} characters`).meta({
  description:
    "The body as Markdown: h1-h3, lists (2 levels), quotes, bold, italic, strikethrough, http(s) links and images; other constructs degrade to text and are listed in `warnings`",
});

/** `cover_url`: an http(s) URL, or null to remove the cover. */
export const coverUrlInput = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000, "must be at most 2000 characters");

/** `GET /v1/articles`: a status filter and the page. */
export const listArticlesInput = z
  .object({
    ...accountSelection,
    status: commaListOf(ARTICLE_FILTERS).optional(),
    ...paginationInput(20),
  })
  .prefault({});

/** The list's filters, parsed. */
export type ListArticlesInput = z.infer<typeof listArticlesInput>;

/** `POST /v1/articles`. */
export const createArticleInput = z.object({ title: titleInput, content_markdown: markdownInput.optional(), ...accountSelection });

/** What a create sends. */
export type CreateArticleInput = z.infer<typeof createArticleInput>;

/** An article addressed by id (`account_id` narrows the search). */
export const articleByIdInput = z.object({ id: articleId, ...accountSelection });

/** An id-addressed call's input. */
export type ArticleByIdInput = z.infer<typeof articleByIdInput>;

/** `PATCH /v1/articles/{id}`: only the fields sent change. */
export const updateArticleInput = articleByIdInput.extend({
  title: titleInput.optional(),
  content_markdown: markdownInput.optional(),
  cover_url: coverUrlInput.nullable().optional(),
});

/** What a PATCH sends. */
export type UpdateArticleInput = z.infer<typeof updateArticleInput>;

/** `POST /v1/articles/{id}/schedule`. */
export const scheduleArticleInput = articleByIdInput.extend({ scheduled_for: timestamp });

/** What a schedule sends. */
export type ScheduleArticleInput = z.infer<typeof scheduleArticleInput>;

/** The Article as every endpoint answers it. */
export const article = z.object({
  id: z.string(),
  account_id: z.string(),
  title: z.string(),
  status: z.enum(ARTICLE_STATUSES).meta({ description: "`draft`, `scheduled`, `published`; `publishing` only while a publication is in flight or reconciled" }),
  content_markdown: z.string(),
  warnings: z.array(z.string()).meta({ description: "What the last body write degraded to text" }),
  cover: z.object({ url: z.string() }).nullable(),
  scheduled_for: z.string().nullable(),
  published_at: z.string().nullable(),
  x_post_id: z.string().nullable().meta({ description: "The post carrying the article, once published" }),
  url: z.string().nullable(),
  last_error: z.string().nullable().meta({ description: "Why the last publication failed (the article is back in draft; filter `failed`)" }),
  created_at: z.string(),
  updated_at: z.string(),
});

/** An Article record. */
export type Article = z.infer<typeof article>;

/** The publish answer (spec: Article, "Publish response"). */
export const publishedArticle = z.object({
  id: z.string(),
  status: z.literal("published"),
  post_id: z.string(),
  url: z.string(),
  published_at: z.string(),
});
