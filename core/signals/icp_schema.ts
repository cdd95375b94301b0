/**
 * The free ICP helpers' inputs and answers (spec: "free AI calls"; supplement Signals:
 * keywords/suggest "returns 2 or 3 keyword ideas", icp/expand "returns the scoring rubric
 * (not storable)", icp/expand-from-url "returns rubric, an `icp_description`, and keyword
 * ideas"). The rubric's shape is not shown in the spec: Threadline's, documented here.
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";
import { webPageUrl } from "../web_page_url.ts";
import { icpDescription } from "./signal_schema.ts";
import { hasSearchableWord } from "./icp_phrases.ts";

/** Keyword ideas per suggestion (supplement: "2 or 3"). */
export const KEYWORD_IDEAS = { min: 2, max: 3 } as const;

/** A keyword idea is usable as a `keyword_watch` query, which takes at most 180 characters (supplement). */
export const KEYWORD_MAX_CHARS = 180;

/**
 * An ICP a helper can work from: 3 to 500 characters naming at least one searchable word.
 * One of only function words ("and the") gives nothing to search for or score against, so
 * it is refused like any other out-of-bounds value (`400 invalid_parameter`).
 */
export const helperIcp = icpDescription
  .refine(hasSearchableWord, "must name at least one searchable word")
  .meta({ description: "Your ideal customer in words, 3 to 500 characters", example: "B2B SaaS founders struggling with churn" });

/**
 * A page to draw an ICP from: an http(s) URL or a bare domain (core/web_page_url.ts) of at
 * most 2048 characters, like a product page's; the outbound guard then decides what may be
 * read (https, public addresses).
 */
export const icpPageUrl = webPageUrl(2048).meta({
  description: "The page to read: a product or landing page on a public https address; a bare domain (`example.com`) means https",
  example: "https://example.com/pricing",
});

/** One scored criterion. */
export const rubricCriterion = z.object({
  criterion: z.string(),
  points: z.number().int().meta({ description: "Points a lead earns for meeting it; a rubric's points add up to 100" }),
});

/** The scoring rubric of an ICP (`POST /v1/signals/icp/expand`). */
export const icpRubric = z
  .object({
    description: z.string().meta({ description: "The ICP written out: who they are, their roles, what they post about" }),
    roles: z.array(z.string()).meta({ description: "Roles to look for, with their usual neighbours" }),
    must_have: z.array(z.string()).meta({ description: "Criteria a fit meets, taken from the ICP's own words" }),
    nice_to_have: z.array(z.string()).meta({ description: "Criteria that make a better fit" }),
    disqualifiers: z.array(z.string()).meta({ description: "What rules a person out whatever else they score" }),
    keywords: z.array(z.string()).meta({ description: "Terms such people post about, drawn from the network's vocabulary when it matches" }),
    scoring: z.array(rubricCriterion).meta({
      description:
        "The must-haves share 70 points (100 when there is nothing nice to have) and the nice-to-haves 30, so a lead meeting every must-have reaches the `high` threshold; a disqualifier scores 0",
    }),
    thresholds: z
      .object({ high: z.number().int(), discovery: z.number().int() })
      .meta({ description: "The lowest score a lead needs under each precision (70 and 50)" }),
  })
  .meta({ id: "IcpRubric" });

/** `POST /v1/signals/keywords/suggest` answers. */
export const keywordIdeas = z.object({
  keywords: z.array(z.string()).min(KEYWORD_IDEAS.min).max(KEYWORD_IDEAS.max).meta({ description: "2 or 3 keyword ideas, best first" }),
});

/** `POST /v1/signals/icp/expand` answers. */
export const icpExpansion = z.object({
  icp_description: z.string().meta({ description: "The ICP as sent, trimmed" }),
  rubric: icpRubric,
});

/** `POST /v1/signals/icp/expand-from-url` answers. */
export const icpPageExpansion = z.object({
  url: z.string().meta({ description: "The page read, after redirects" }),
  page_title: z.string().nullable(),
  icp_description: z.string().meta({ description: "An ICP drawn from the page's title, description and headings, at most 500 characters" }),
  rubric: icpRubric,
  keywords: z.array(z.string()).min(KEYWORD_IDEAS.min).max(KEYWORD_IDEAS.max).meta({ description: "2 or 3 keyword ideas for that ICP" }),
});

/** `POST /v1/signals/keywords/suggest` and `POST /v1/signals/icp/expand`: the ideal-customer description. */
export const icpHelperInput = z.object({ icp_description: helperIcp, ...accountSelection });

/** `POST /v1/signals/icp/expand-from-url`: the page to read. */
export const icpPageInput = z.object({ url: icpPageUrl, ...accountSelection });

/** The types. */
export type IcpRubric = z.infer<typeof icpRubric>;
export type IcpExpansion = z.infer<typeof icpExpansion>;
export type IcpPageExpansion = z.infer<typeof icpPageExpansion>;
