/**
 * Shared zod pieces every area builds its inputs from, so a bound is written once
 * (spec: rules 2, 4, 5 and 6; Constants).
 */
import { z } from "zod";

/** A UTC ISO-8601 timestamp input; an explicit `Z` or numeric offset is required (rule 2). */
export const timestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO-8601 timestamp with an explicit Z or numeric offset" })
  .meta({ description: "ISO-8601 timestamp with `Z` or a numeric offset", example: "2026-11-21T09:00:00Z" });

/** An account id: the social network's numeric user id as text (spec: Account). */
export const accountIdValue = z
  .string()
  .regex(/^[0-9]{1,25}$/, "must be a numeric account id")
  .meta({ description: "Account id (numeric text); defaults to the main account", example: "1600000000000000001" });

/** The optional `account_id` every account-scoped endpoint takes (rule 6). */
export const accountSelection = { account_id: accountIdValue.optional() };

/** `limit` (1 to 100) with an endpoint's own default (rule 5). */
export function limitParam(defaultLimit: number) {
  return z
    .number({ error: "must be an integer from 1 to 100" })
    .int("must be an integer from 1 to 100")
    .min(1, "must be an integer from 1 to 100")
    .max(100, "must be an integer from 1 to 100")
    .default(defaultLimit)
    .meta({ description: `Page size, 1 to 100 (default ${defaultLimit})` });
}

/**
 * The deepest page a list serves. Paging is by offset, and a deep offset makes the database
 * read and drop every row before it: 10,000 pages reach a million rows at `limit=100`, past any
 * list a user holds, while a request cannot ask for a hundred million.
 */
export const MAX_PAGE = 10_000;

/** `page`, 1-based (rule 5), at most {@link MAX_PAGE}. */
export const pageParam = z
  .number({ error: "must be an integer of at least 1" })
  .int("must be an integer of at least 1")
  .min(1, "must be an integer of at least 1")
  .max(MAX_PAGE, `must be at most ${MAX_PAGE} (use a larger limit or narrow the list)`)
  .default(1)
  .meta({ description: `1-based page number, 1 to ${MAX_PAGE} (default 1)` });

/** The pagination query of a list endpoint. */
export function paginationInput(defaultLimit = 20) {
  return { limit: limitParam(defaultLimit), page: pageParam };
}

const ID_MESSAGE = "must be a positive integer id (a number or a decimal string)";

/**
 * A positive integer id in a path or a query (`/v1/tags/{id}`, `?worker_id=3`): the REST
 * surface converts the text (`"12"` and `12` name one record); typed tRPC clients send the
 * number. trpc-to-openapi takes only plain schemas in those positions.
 */
export const integerId = z.number({ error: ID_MESSAGE }).int(ID_MESSAGE).min(1, ID_MESSAGE).max(Number.MAX_SAFE_INTEGER, ID_MESSAGE);

/**
 * The id of one of our own records in a body (`tags: [3, "7"]`): a positive integer or the
 * same number as a decimal string, since JSON clients and shells often hold ids as strings
 * (the real service's CLI sends `--tag` values as strings). Both name the same record;
 * anything else is `400 invalid_parameter`. Input only: answers carry ids as integers.
 */
export const recordId = z.union(
  [
    integerId,
    z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, ID_MESSAGE)
      .transform(Number)
      .pipe(z.number().max(Number.MAX_SAFE_INTEGER, ID_MESSAGE)),
  ],
  { error: ID_MESSAGE },
);

/** A post's public counters as the network shows them (own posts, inspiration results). */
export const postCounters = z
  .object({
    likes: z.number().int(),
    replies: z.number().int(),
    reposts: z.number().int(),
    quotes: z.number().int(),
    bookmarks: z.number().int(),
    impressions: z.number().int(),
  })
  .meta({ id: "PostMetrics", description: "A post's public counters when last read" });

/** The pagination object of list responses (rule 4). */
export const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  total: z.number().int().optional(),
});

/** `{ data: [...], pagination }` for a list of `item`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination });
}

/** `{ data: item }` for a single object (rule 4). */
export function dataOf<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** Builds the pagination object from a page of rows fetched with one extra row. */
export function pageInfo(page: number, limit: number, total: number | undefined, fetched: number) {
  const info: z.infer<typeof pagination> = { page, limit, has_more: fetched > limit };
  if (total !== undefined) {
    info.total = total;
    info.has_more = page * limit < total;
  }
  return info;
}

/**
 * A comma list in a query (`status=draft,sent`; supplement 1.2: lists arrive as one
 * comma-joined string): each value must be one of `values`; empty items are ignored.
 */
export function commaListOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((text, ctx) => {
      const items = [
        ...new Set(
          text
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = items.find((item) => !(values as readonly string[]).includes(item));
      if (unknown !== undefined) ctx.addIssue({ code: "custom", message: `"${unknown}" is not one of ${values.join(", ")}` });
      return items as T[number][];
    })
    .meta({ description: `Comma list of ${values.join(", ")}` });
}

/** A comma list of positive integer ids in a query (`tags=3,7`). */
export const commaIdList = z
  .string()
  .transform((text, ctx) => {
    const items = [
      ...new Set(
        text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ];
    const bad = items.find((item) => !/^[1-9][0-9]{0,15}$/.test(item));
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: `"${bad}" is not a positive integer id` });
    return items.map(Number);
  })
  .meta({ description: "Comma list of ids" });

/** An X handle, `@` optional (the value keeps no `@`). */
export const xHandle = z
  .string()
  .regex(/^@?[A-Za-z0-9_]{1,15}$/, "must be an X handle: 1 to 15 letters, digits or underscores, @ optional")
  .transform((value) => value.replace(/^@/, ""));

/** A person's numeric X user id as text (ids pass 2^53, so never a JSON number in answers). */
export const xUserId = z
  .string({ error: "must be a numeric X user id" })
  .regex(/^[0-9]{1,25}$/, "must be a numeric X user id of 1 to 25 digits")
  .meta({ description: "Numeric X user id", example: "1600000000000000002" });

/**
 * An X user id in a body: the numeric text, or a JSON number when it is an exact integer
 * (ids past 2^53 arrive rounded as numbers, so those must be sent as text).
 */
export const xUserIdInput = z.union(
  [xUserId, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER, "must be sent as text: X user ids past 2^53 lose digits as JSON numbers").transform(String)],
  { error: "must be a numeric X user id (text of 1 to 25 digits)" },
);
