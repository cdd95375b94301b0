/**
 * The shapes of the Datasets area (docs/areas.md "Datasets"; spec: Datasets, Outreach drafts result, Dataset
 * states, Limits 7-8, Constants; supplement: Datasets), shared by the routers, the jobs and
 * the MCP tools. The spec leaves the record and rows "not shown": these are Threadline's,
 * documented in the OpenAPI document.
 */
import { z } from "zod";
import { accountSelection, paginationInput, recordId, timestamp } from "../schema.ts";

/** Sources that collect from the network or the account's own content. */
export const COLLECTION_SOURCES = ["repliers", "quoters", "reposters", "list_members", "my_posts", "my_replies"] as const;

/** Every `source` of `POST /v1/datasets`. */
export const DATASET_SOURCES = [...COLLECTION_SOURCES, "research"] as const;

/** A dataset's source. */
export type DatasetSource = (typeof DATASET_SOURCES)[number];

/** Sources whose rows carry the person's own text (refine judges it: supplement, refine). */
export const TEXT_SOURCES: readonly DatasetSource[] = ["repliers", "quoters"];

/** Sources whose rows are people (`has_people`; own content is posts). */
export const PEOPLE_SOURCES: readonly DatasetSource[] = ["repliers", "quoters", "reposters", "list_members", "research"];

/** Dataset states (spec: Dataset). */
export const DATASET_STATUSES = ["collecting", "ready", "failed"] as const;

/** Rows a collection keeps at most, and by default (supplement: `max_rows` 1-1000, default 500). */
export const MAX_COLLECTION_ROWS = 1_000;
export const DEFAULT_COLLECTION_ROWS = 500;

/** Profiles a research run reads at most, and by default (supplement: 1-25, default 10). */
export const MAX_RESEARCH_ROWS = 25;
export const DEFAULT_RESEARCH_ROWS = 10;

/** More research profiles than this answer `202` (supplement: "More than 5 profiles: 202"). */
export const SYNC_RESEARCH_PROFILES = 5;

/** Spec Constants: "Dataset retention 30 days". */
export const DATASET_RETENTION_DAYS = 30;

/** A dataset id in a path: `^[A-Za-z0-9_-]{1,64}$` (spec: outreach-drafts path), else `400`. */
export const datasetId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must match ^[A-Za-z0-9_-]{1,64}$")
  .meta({ description: "Dataset id", example: "ds_4kQm2x9TbW1c" });

/** A dataset id in a body: the same text, or a number a client holds (sent as its digits). */
export const datasetIdInput = z.union([z.number().int().min(0).transform(String), z.string()], { error: "must match ^[A-Za-z0-9_-]{1,64}$" }).pipe(datasetId);

const keywordList = (what: string) =>
  z
    .array(z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"))
    .max(20, "must hold at most 20 keywords")
    .meta({ description: what });

/** `filters` of a collection (supplement: Datasets, collection form). */
export const collectionFilters = z
  .object({
    keywords: keywordList("Keep rows whose text contains one of these (case-insensitive); repliers and quoters").optional(),
    bio_keywords: keywordList("Keep people whose bio contains one of these (case-insensitive)").optional(),
    min_followers: z.number().int().min(0).max(1_000_000_000).optional().meta({ description: "Keep people with at least this many followers" }),
    require_website: z.boolean().optional().meta({ description: "Keep people with a website on their profile" }),
    require_can_dm: z.boolean().optional().meta({ description: "Keep people who accept direct messages" }),
    since_days: z.number().int().min(1).max(365).optional().meta({ description: "`my_posts`/`my_replies` only: the last N days (default 90)" }),
    sort: z.enum(["recent", "likes", "impressions"]).optional().meta({ description: "`my_posts`/`my_replies` only (default `recent`)" }),
  })
  .meta({ id: "DatasetFilters" });

/** The body of `POST /v1/datasets` (collection and research forms in one object; core checks which fields fit the source). */
export const createDatasetInput = z.object({
  source: z.enum(DATASET_SOURCES, { error: `must be one of ${DATASET_SOURCES.join(", ")}` }),
  target: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "Post URL or id (repliers, quoters, reposters); X list URL or id (list_members); not used otherwise" }),
  title: z.string().trim().min(1).max(300).optional().meta({ description: "Up to 300 characters; default derived from the source" }),
  max_rows: z
    .number()
    .int()
    .min(1)
    .max(MAX_COLLECTION_ROWS)
    .optional()
    .meta({ description: "Collections 1 to 1,000 (default 500); research 1 to 25 (default 10)" }),
  filters: collectionFilters.optional(),
  handles: z
    .array(z.string().trim().min(1).max(50))
    .min(1)
    .max(MAX_RESEARCH_ROWS, `must hold at most ${MAX_RESEARCH_ROWS} handles`)
    .optional()
    .meta({ description: "Research: X handles (with or without @)" }),
  list_id: recordId.optional().meta({ description: "Research: a contact list of the account" }),
  agent_id: recordId.optional().meta({ description: "Research: a signal agent's leads, best first" }),
  dataset_id: datasetIdInput.optional().meta({ description: "Research: the people of another dataset of yours" }),
  focus: z.string().trim().min(1).max(500).optional().meta({ description: "Research: what to look for in their posts" }),
  ...accountSelection,
});

/** The parsed body of `POST /v1/datasets`. */
export type CreateDatasetInput = z.infer<typeof createDatasetInput>;

/** `GET /v1/datasets`: the page (owner-scoped, no `account_id`). */
export const listDatasetsInput = z.object(paginationInput(20)).prefault({});

/** The list's page, parsed. */
export type ListDatasetsInput = z.infer<typeof listDatasetsInput>;

/** `GET /v1/datasets/{id}` (owner-scoped, no `account_id`). */
export const datasetByIdInput = z.object({ id: datasetId });

/** An id-addressed read's input. */
export type DatasetByIdInput = z.infer<typeof datasetByIdInput>;

/** Counts of a dataset (which appear depends on the source). */
export const datasetCounts = z
  .object({
    scanned: z.number().int().optional().meta({ description: "People or posts read from the network" }),
    matched: z.number().int().optional().meta({ description: "Rows that passed the filters (before `max_rows`)" }),
    filtered_out: z.number().int().optional(),
    duplicates: z.number().int().optional().meta({ description: "Repeat appearances of one person, kept once" }),
    researched: z.number().int().optional(),
    skipped: z.number().int().optional(),
    kept: z.number().int().optional().meta({ description: "Refine: rows kept" }),
    dropped: z.number().int().optional().meta({ description: "Refine: rows left out" }),
    unclear: z.number().int().optional().meta({ description: "Refine: rows the model could not judge (kept)" }),
  })
  .meta({ id: "DatasetCounts" });

/** A dataset record (`GET /v1/datasets/{id}`, list items, create answers). */
export const dataset = z
  .object({
    id: z.string(),
    title: z.string(),
    source: z.enum(DATASET_SOURCES),
    status: z.enum(DATASET_STATUSES),
    account_id: z.string(),
    target: z.string().nullable(),
    row_count: z.number().int().meta({ description: "Rows stored (0 while collecting in the background)" }),
    rows_collected: z.number().int().meta({ description: "Progress while collecting" }),
    expected_total: z.number().int().nullable().meta({ description: "The size estimate; null when unsizable" }),
    max_rows: z.number().int(),
    counts: datasetCounts,
    coverage: z.string().meta({ description: "One sentence on what the rows cover" }),
    has_people: z.boolean().meta({ description: "Rows are people (false for own posts and replies)" }),
    has_messages: z.boolean().meta({ description: "Outreach drafts are on the rows" }),
    filters: collectionFilters.nullable(),
    focus: z.string().nullable(),
    refined_from: z.string().nullable().meta({ description: "The dataset a refine read" }),
    criterion: z.string().nullable().meta({ description: "Refine: the criterion" }),
    note: z.string().nullable(),
    error: z.string().nullable().meta({ description: "Why a `failed` dataset failed" }),
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: timestamp.nullable(),
    expires_at: timestamp,
  })
  .meta({ id: "Dataset" });

/** A dataset record. */
export type Dataset = z.infer<typeof dataset>;

/** A research brief (what they post about). */
export const researchBrief = z
  .object({
    summary: z.string(),
    topics: z.array(z.string()),
    tone: z.string(),
    recent_themes: z.array(z.string()),
  })
  .meta({ id: "ResearchBrief" });

/** A hook: a verbatim quote of one of the person's own recent posts. */
export const researchHook = z
  .object({
    quote: z.string(),
    post_id: z.string(),
    post_url: z.string(),
    posted_at: timestamp.nullable(),
  })
  .meta({ id: "ResearchHook" });

/** A row as collected (`GET /v1/datasets/{id}/rows`); fields a source has not are null. */
export const datasetRow = z
  .object({
    position: z.number().int(),
    x_user_id: z.string().nullable(),
    handle: z.string().nullable(),
    name: z.string().nullable(),
    bio: z.string().nullable(),
    location: z.string().nullable(),
    website: z.string().nullable(),
    avatar_url: z.string().nullable(),
    followers_count: z.number().int().nullable(),
    following_count: z.number().int().nullable(),
    verified: z.boolean().nullable(),
    can_dm: z.boolean().nullable(),
    post_id: z.string().nullable().meta({ description: "The reply, quote or own post the row came from" }),
    post_text: z.string().nullable(),
    post_url: z.string().nullable(),
    posted_at: timestamp.nullable(),
    likes: z.number().int().nullable(),
    replies: z.number().int().nullable(),
    reposts: z.number().int().nullable(),
    quotes: z.number().int().nullable(),
    impressions: z.number().int().nullable(),
    brief: researchBrief.nullable(),
    hooks: z.array(researchHook).nullable(),
    message: z.string().nullable().meta({ description: "The outreach draft, once drafted" }),
  })
  .meta({ id: "DatasetRow" });

/** A dataset row. */
export type DatasetRowView = z.infer<typeof datasetRow>;

/** `data` of the outreach-drafts answer (spec: Outreach drafts result). */
export const outreachResult = z
  .object({
    dataset_id: z.string(),
    title: z.string(),
    total: z.number().int(),
    drafted: z.number().int(),
    generic: z.number().int(),
    failed: z.number().int(),
    contaminated: z.number().int(),
    long_messages: z.number().int(),
    sample_messages: z.array(z.object({ handle: z.string().nullable(), message: z.string() })),
  })
  .meta({ id: "OutreachDraftsResult" });

/** Spec Constants: "Outreach format / instructions 10 to 1000 / up to 500 chars". */
export const outreachFormat = z
  .string()
  .min(10, "must be 10 to 1000 characters")
  .max(1000, "must be 10 to 1000 characters")
  .meta({ description: "Template or example message; `[name]`, `[first]`, `[handle]` are left intact for send-time fill-in" });
export const outreachInstructions = z.string().max(500, "must be at most 500 characters");

/** What a skipped research profile says. */
export const skippedProfile = z
  .object({
    handle: z.string().nullable(),
    x_user_id: z.string().nullable(),
    reason: z.enum(["not_found", "protected", "no_recent_posts", "allowance_exhausted", "model_failed"]),
  })
  .meta({ id: "SkippedProfile" });

/**
 * The answer of `POST /v1/datasets`: the dataset (`201` ready, `202` collecting), or `data:
 * null` with a `note` when nothing matched or a research run read nobody (`200`; nothing
 * stored, the slot or credits given back).
 */
export const createDatasetOutput = z.object({
  data: dataset.nullable(),
  note: z.string().optional(),
  meta: z
    .object({
      account_id: z.string(),
      enrichment_units: z.number().int().optional().meta({ description: "Enrichment units charged before the walk" }),
      credits_charged: z.number().int().optional().meta({ description: "Research: credits kept (1 per profile researched)" }),
      skipped: z.array(skippedProfile).optional().meta({ description: "Research: profiles not researched, and why (not charged)" }),
    })
    .optional(),
});

/** The answer of `POST /v1/datasets`. */
export type CreateDatasetOutput = z.infer<typeof createDatasetOutput>;
