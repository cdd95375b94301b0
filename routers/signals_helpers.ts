/**
 * Signals' free helpers (docs/areas.md "Signals"; spec AI credits: "Free AI calls ... charge no
 * credits and send no `X-Credits-Charged`; the first two have only the plan request limit
 * as bound; all need the write scope"): keyword ideas, the scoring rubric of an ICP, and
 * both drawn from a web page. Nothing is stored.
 */
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import type { ErrorCode } from "../core/errors.ts";
import { expandIcp, suggestKeywords } from "../core/signals/icp_helpers.ts";
import { expandIcpFromUrl } from "../core/signals/icp_from_url.ts";
import { icpExpansion, icpHelperInput, icpPageExpansion, icpPageInput, keywordIdeas } from "../core/signals/icp_schema.ts";

const modelErrors: ErrorCode[] = ["upstream_error", "upstream_unavailable", "upstream_timeout"];

export const signalsHelpersRouter = router({
  suggestKeywords: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/keywords/suggest",
        tags: ["Signals"],
        summary: "Suggest 2 or 3 keywords from an ideal-customer description",
        description:
          "Free AI call (no `X-Credits-Charged`; `X-Credits-Remaining` and `X-Credits-Reset` are sent). Ideas come from the model, drawing on the terms people in the network post about; when it gives fewer than 2, the list is completed from the description's own phrases, and for a one-word description from its hashtag (`#dentists`). `icp_description` is 3 to 500 characters with at least one searchable word. Writes nothing; bound only by the plan's request limit.",
      },
      credits: "free",
      errors: modelErrors,
      toolName: "signals_suggest_keywords",
    })
    .input(icpHelperInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(dataOf(keywordIdeas))
    .mutation(async ({ ctx, input }) => ({ data: { keywords: await suggestKeywords(ctx.services, input.icp_description) } })),

  expandIcp: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/icp/expand",
        tags: ["Signals"],
        summary: "Expand an ideal-customer description into a scoring rubric",
        description:
          "Free AI call (no `X-Credits-Charged`). Answers the ICP written out, its roles, keywords, and criteria read from its own words (must-haves, nice-to-haves, disqualifiers) with points: the must-haves share 70 (100 when nothing is nice to have) and the nice-to-haves 30, so meeting every must-have reaches the `high` threshold; a disqualifier scores 0. The rubric is not stored. Bound only by the plan's request limit.",
      },
      credits: "free",
      errors: modelErrors,
      toolName: "signals_expand_icp",
    })
    .input(icpHelperInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(dataOf(icpExpansion))
    .mutation(async ({ ctx, input }) => ({
      data: { icp_description: input.icp_description, rubric: await expandIcp(ctx.services, input.icp_description) },
    })),

  expandIcpFromUrl: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/icp/expand-from-url",
        tags: ["Signals"],
        summary: "Draw an ideal-customer description, its rubric and keyword ideas from a web page",
        description:
          "Free AI call (no `X-Credits-Charged`). Reads the page like a product scrape: one of the 20 page reads per account per UTC day, shared with product scrapes (`429 rate_limited` with `bucket: page_reads` beyond), `400 url_not_allowed` for a URL that is not https, carries credentials or reaches a private, loopback or reserved address (on any redirect too; the operator's `OUTBOUND_ALLOW_HOSTS` are exempt and may use http), `422 scrape_failed` for a page that cannot be read or says nothing. At most 10 calls per user in any 10 minutes, rolling (`429 rate_limited` with `bucket: icp_url_expansions` and `Retry-After`), counted before the page read. The `icp_description` is \"People interested in\" the page's title, then its description and up to three headings, at most 500 characters.",
      },
      credits: "free",
      errors: [...modelErrors, "rate_limited", "url_not_allowed", "scrape_failed"],
      toolName: "signals_expand_icp_from_url",
    })
    .input(icpPageInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(dataOf(icpPageExpansion))
    .mutation(({ ctx, input }) => expandIcpFromUrl(ctx, input.url)),
});
