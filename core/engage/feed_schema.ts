/**
 * What the Engage feed endpoints take and answer (spec: Engage feed, POST /v1/engage/feeds;
 * supplement: Engage, PATCH /v1/engage/feeds/{id}).
 */
import { z } from "zod";
import { accountSelection, integerId, recordId } from "../schema.ts";

/** Feeds an account keeps (spec Constants: "Engage feeds per account: 8"). */
export const MAX_FEEDS = 8;

/** Keywords per feed (spec Constants: 1 to 5). */
export const MAX_KEYWORDS = 5;

/** A feed's type, agreeing with its source field. */
export const feedType = z.enum(["keywords", "x_list", "list"], { error: "must be keywords, x_list or list" });

/** A feed name: trimmed, 1 to 40 characters (spec: Engage feed `name`). */
export const feedName = z
  .string({ error: "must be a string of 1 to 40 characters" })
  .trim()
  .min(1, "must not be empty")
  .max(40, "must be at most 40 characters");

const keyword = z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

/**
 * 1 to 5 keywords, trimmed and de-duplicated case-insensitively, the first spelling kept
 * (spec: "array of 1 to 5 strings, trimmed, de-duplicated case-insensitively, each with a
 * length bound of 100"). The bound applies to what was sent, before de-duplication.
 */
export const feedKeywords = z
  .array(keyword, { error: "must be an array of 1 to 5 strings" })
  .min(1, "must hold at least 1 keyword")
  .max(MAX_KEYWORDS, `must hold at most ${MAX_KEYWORDS} keywords`)
  .transform((values) => {
    const seen = new Set<string>();
    return values.filter((value) => {
      const key = value.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .meta({ description: "1 to 5 search keywords (phrases allowed), each at most 100 characters" });

const LIST_ID_MESSAGE = "must be a numeric X list id";

/** A numeric X list id, as text or a number (the real client sends 1 to 32 digits as `x_list_id`). */
export const xListId = z
  .union(
    [
      z
        .string()
        .trim()
        .regex(/^[0-9]{1,32}$/, LIST_ID_MESSAGE),
      z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String),
    ],
    {
      error: LIST_ID_MESSAGE,
    },
  )
  .meta({ description: "Numeric id of a public X list", example: "1500000000000000001" });

const LIST_URL = /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?\/i\/lists\/([0-9]{1,32})\/?(?:[?#].*)?$/;

/** A list link `https://<host>/i/lists/<numeric id>`; the value is the id. */
export const xListUrl = z
  .string({ error: "must be a link https://<host>/i/lists/<numeric id>" })
  .trim()
  .regex(LIST_URL, "must be a link https://<host>/i/lists/<numeric id>")
  .transform((value) => (value.match(LIST_URL) as RegExpMatchArray)[1])
  .meta({ description: "Link to a public X list, `https://x.com/i/lists/<id>`", example: "https://x.com/i/lists/1500000000000000001" });

/** The source fields a create or update may carry (exactly one on create; at most one on update). */
export const SOURCE_FIELDS = ["keywords", "x_list_id", "x_list_url", "list_id"] as const;

/** A feed as the API answers it. */
export const engageFeed = z
  .object({
    id: z.string(),
    name: z.string(),
    type: feedType,
    keywords: z.array(z.string()).nullable().meta({ description: "The keywords (type `keywords`), else null" }),
    x_list_id: z.string().nullable().meta({ description: "The X list read (type `x_list`), else null" }),
    x_list_name: z.string().nullable().meta({ description: "The X list's name when it was resolved" }),
    list_id: z.number().int().nullable().meta({ description: "The contact list read (type `list`); null when that list was deleted" }),
    active: z.boolean().meta({ description: "The feed open in the app; false unless the account had no active feed when it was created" }),
    fetch_units: z.number().int().meta({ description: "Feed-bucket units one fetch of its posts costs: 1, or 3 for a list feed that rotates its members" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "EngageFeed" });

/** A feed in the API's shape. */
export type EngageFeed = z.infer<typeof engageFeed>;

/** At most this many ids in `exclude_post_ids` (supplement: "comma list, max 100"). */
export const MAX_EXCLUDED_POSTS = 100;

/** `exclude_post_ids`: a comma list of up to 100 X post ids (numeric text); blanks and repeats ignored. */
export const excludedPostIds = z
  .string()
  .transform((text, ctx) => {
    const ids = [
      ...new Set(
        text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ];
    const bad = ids.find((id) => !/^[0-9]{1,25}$/.test(id));
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: `"${bad.slice(0, 40)}" is not an X post id` });
    if (ids.length > MAX_EXCLUDED_POSTS) ctx.addIssue({ code: "custom", message: `must hold at most ${MAX_EXCLUDED_POSTS} post ids` });
    return ids;
  })
  .meta({ description: "Comma list of up to 100 X post ids to leave out (the paging mechanism)" });

/** A feed's source: one of these fields (the meta's `exactlyOneOf` on create states the rule). */
export const feedSource = z.object({
  keywords: feedKeywords.optional(),
  x_list_id: xListId.optional(),
  x_list_url: xListUrl.optional(),
  list_id: recordId.optional().meta({ description: "A contact list of the account (`GET /v1/contact-lists`)" }),
});

/** The source fields a create or change sent. */
export type FeedSource = z.infer<typeof feedSource>;

/** `GET /v1/engage/feeds`. */
export const listFeedsInput = z.object({ ...accountSelection }).prefault({});

/** `POST /v1/engage/feeds`. */
export const createFeedInput = z.object({ name: feedName, type: feedType, ...feedSource.shape, ...accountSelection });

/** What a create sends. */
export type CreateFeedInput = z.infer<typeof createFeedInput>;

/** `PATCH /v1/engage/feeds/{id}`. */
export const changeFeedInput = z.object({ id: integerId, name: feedName.optional(), ...feedSource.shape, ...accountSelection });

/** What a change sends. */
export type ChangeFeedInput = z.infer<typeof changeFeedInput>;

/** A feed addressed by id (`account_id` narrows the search). */
export const feedByIdInput = z.object({ id: integerId, ...accountSelection });

/** An id-addressed call's input. */
export type FeedByIdInput = z.infer<typeof feedByIdInput>;

const queryFlag = (description: string) => z.boolean().default(false).meta({ description });

/** `GET /v1/engage/feeds/{id}/posts`. */
export const feedPostsInput = z.object({
  id: integerId,
  mode: z.enum(["top", "latest"], { error: "must be top or latest" }).default("top"),
  limit: z
    .number({ error: "must be an integer from 1 to 50" })
    .int("must be an integer from 1 to 50")
    .min(1, "must be an integer from 1 to 50")
    .max(50, "must be an integer from 1 to 50")
    .default(20),
  fresh: queryFlag("`true` skips the 2-minute cache of what the feed read"),
  include_replied: queryFlag("`true` keeps posts you already replied to, flagged `replied`"),
  exclude_post_ids: excludedPostIds.optional(),
  ...accountSelection,
});

/** The query of a feed read. */
export type FeedPostsInput = z.infer<typeof feedPostsInput>;
