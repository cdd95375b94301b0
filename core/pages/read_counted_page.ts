/**
 * Reading a page a caller named, counted against the account's 20 page reads a day
 * (supplement 3.2; shared by product scrapes and ICP expansion from a URL), with the
 * answers both give: `429 rate_limited` naming `page_reads` when the day's reads are
 * spent (or cannot be verified: rule 9 refuses), `400 url_not_allowed` from the outbound
 * guard, `422 scrape_failed` for a page that cannot be read. A read that fails still
 * spends its unit: the fetch was made.
 */
import type { KeyContext } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { consumeAllowances } from "../limits/allowances.ts";
import { PAGE_READS } from "../limits/allowance_catalog.ts";
import { UrlNotAllowedError } from "../outbound/outbound.ts";
import { type PageContent, PageReadError } from "../ports/page_reader.ts";

/** Spends one of the owner's page reads and reads `url`, or throws the API error. */
export async function readCountedPage(ctx: KeyContext, url: string, what: string): Promise<PageContent> {
  const outcome = await consumeAllowances(ctx, ctx.principal.mainAccountId, [{ spec: PAGE_READS, units: 1 }]);
  if (outcome.status === "unverifiable")
    throw retryableError("rate_limited", "The page-read allowance cannot be verified right now; retry shortly", 30, { bucket: "page_reads" });
  if (outcome.status === "refused") {
    const retryAfter = outcome.blocked.resetAt - Math.floor(outcome.checkedAt / 1000);
    throw retryableError("rate_limited", `An account reads at most ${PAGE_READS.limit} pages a day; retry after midnight UTC`, retryAfter, {
      bucket: "page_reads",
    });
  }
  try {
    return await ctx.services.pageReader.read(url);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw new ApiError("url_not_allowed", error.message);
    if (error instanceof PageReadError) throw new ApiError("scrape_failed", `Cannot read the ${what}: ${error.message}`);
    throw error;
  }
}
