/**
 * `POST /v1/context/products/{id}/scrape` (supplement section 5: "re-reads the saved
 * product url; free; 20 page reads/day; `422 scrape_failed`"). The page's title fills
 * a missing name; its description and highlights replace the scraped fields.
 */
import type { AccountContext } from "../context.ts";
import { ApiError, retryableError } from "../errors.ts";
import { consumeAllowances } from "../limits/allowances.ts";
import { PAGE_READS } from "../limits/allowance_catalog.ts";
import { UrlNotAllowedError } from "../outbound/outbound.ts";
import { PageReadError } from "../pages/page_reader.ts";
import { productById, saveScrapedProduct } from "./context_queries.ts";
import { toProduct } from "./products.ts";

/** Reads the product's page again and stores what it says. */
export async function scrapeProduct(ctx: AccountContext, id: number) {
  const { sql, pageReader } = ctx.services;
  const product = await productById(sql, ctx.account.id, id);
  if (!product || product.deleted_at) throw new ApiError("not_found", `Cannot find product "${id}"`);
  const outcome = await consumeAllowances(ctx, ctx.principal.mainAccountId, [{ spec: PAGE_READS, units: 1 }]);
  if (outcome.status === "unverifiable")
    throw retryableError("rate_limited", "The page-read allowance cannot be verified right now; retry shortly", 30, { bucket: "page_reads" });
  if (outcome.status === "refused") {
    const retryAfter = outcome.blocked.resetAt - Math.floor(outcome.checkedAt / 1000);
    throw retryableError("rate_limited", `An account reads at most ${PAGE_READS.limit} pages a day; retry after midnight UTC`, retryAfter, {
      bucket: "page_reads",
    });
  }
  let page: Awaited<ReturnType<typeof pageReader.read>>;
  try {
    page = await pageReader.read(product.url);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw new ApiError("url_not_allowed", error.message);
    if (error instanceof PageReadError) throw new ApiError("scrape_failed", `Cannot read the product page: ${error.message}`);
    throw error;
  }
  const row = await saveScrapedProduct(sql, product.id, page);
  return { data: toProduct(row) };
}
