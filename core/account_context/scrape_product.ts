/**
 * `POST /v1/context/products/{id}/scrape` (supplement section 5: "re-reads the saved
 * product url; free; 20 page reads/day; `422 scrape_failed`"). The page's title fills
 * a missing name; its description and highlights replace the scraped fields.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { readCountedPage } from "../pages/read_counted_page.ts";
import { productById, saveScrapedProduct } from "./context_queries.ts";
import { toProduct } from "./products.ts";

/** Reads the product's page again and stores what it says. */
export async function scrapeProduct(ctx: AccountContext, id: number) {
  const { sql } = ctx.services;
  const product = await productById(sql, ctx.account.id, id);
  if (!product || product.deleted_at) throw new ApiError("not_found", `Cannot find product "${id}"`);
  const page = await readCountedPage(ctx, product.url, "product page");
  const row = await saveScrapedProduct(sql, product.id, page);
  return { data: toProduct(row) };
}
