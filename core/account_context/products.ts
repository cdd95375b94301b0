/**
 * Products (supplement: `PUT /v1/context/products`, `PATCH /v1/context/products/{id or
 * url}`; spec: `DELETE /v1/context/products/{id}`, "Reversible: re-adding the same url
 * ... restores it with scraped details"). At most 5 active per account; every change
 * is one transaction holding the account's context row, so concurrent writes cannot
 * pass the cap.
 */
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { activeProducts, contextForUpdate, deleteProductRow, deleteProductsExcept, productById, type ProductRow, upsertProduct } from "./context_queries.ts";
import { MAX_PRODUCTS, productUrl, type Product, type ProductFields } from "./product_schema.ts";

/** Replaces the product list by url: missing urls are removed, `[]` removes all. */
export async function replaceProducts(ctx: AccountContext, products: ({ url: string } & ProductFields)[]) {
  assertDistinctUrls(products.map((item) => item.url));
  if (products.length > MAX_PRODUCTS) throw tooMany();
  const rows = await ctx.services.sql.begin((tx) => replaceProductsIn(tx, ctx.account.id, products));
  return { data: rows.map(toProduct) };
}

/** The transaction body of a full replace (also used by `PUT /v1/context`). */
export async function replaceProductsIn(tx: Queryable, accountId: string, products: ({ url: string } & ProductFields)[]): Promise<ProductRow[]> {
  await contextForUpdate(tx, accountId);
  await deleteProductsExcept(
    tx,
    accountId,
    products.map((item) => item.url),
  );
  for (const { url, ...fields } of products) await upsertProduct(tx, accountId, url, fields);
  return activeProducts(tx, accountId);
}

/** Adds or restores products by url without removing others (the `products` field of `PATCH /v1/context`). */
export async function addProductsIn(tx: Queryable, accountId: string, products: ({ url: string } & ProductFields)[]): Promise<ProductRow[]> {
  assertDistinctUrls(products.map((item) => item.url));
  await contextForUpdate(tx, accountId);
  for (const { url, ...fields } of products) await upsertWithinCap(tx, accountId, url, fields);
  return activeProducts(tx, accountId);
}

/** Changes one product addressed by numeric id, or creates/restores one addressed by url. */
export async function patchProduct(ctx: AccountContext, target: string, fields: ProductFields) {
  const row = await ctx.services.sql.begin(async (tx) => {
    await contextForUpdate(tx, ctx.account.id);
    if (/^[0-9]{1,18}$/.test(target)) {
      const existing = await productById(tx, ctx.account.id, Number(target));
      if (!existing || existing.deleted_at) throw notFound(target);
      return upsertProduct(tx, ctx.account.id, existing.url, fields);
    }
    const parsed = productUrl.safeParse(safeDecode(target));
    if (!parsed.success) throw new ApiError("invalid_parameter", 'Invalid "id": must be a numeric product id or an http(s) product URL');
    return upsertWithinCap(tx, ctx.account.id, parsed.data, fields);
  });
  return { data: toProduct(row) };
}

/** Removes a product; re-adding its url restores it. */
export async function deleteProduct(ctx: AccountContext, id: number) {
  const deleted = await ctx.services.sql.begin(async (tx) => {
    await contextForUpdate(tx, ctx.account.id);
    return deleteProductRow(tx, ctx.account.id, id);
  });
  if (!deleted) throw notFound(String(id));
  return { data: { id, deleted: true as const } };
}

/** A product row as returned. */
export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    description: row.description,
    positioning: row.positioning,
    features: row.features,
    updates: row.updates,
    scraped_at: row.scraped_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function upsertWithinCap(tx: Queryable, accountId: string, url: string, fields: ProductFields): Promise<ProductRow> {
  const active = await activeProducts(tx, accountId);
  if (!active.some((row) => row.url === url) && active.length >= MAX_PRODUCTS) throw tooMany();
  return upsertProduct(tx, accountId, url, fields);
}

function assertDistinctUrls(urls: string[]): void {
  const duplicate = urls.find((url, i) => urls.indexOf(url) !== i);
  if (duplicate) throw new ApiError("invalid_parameter", `Invalid "products": the url "${duplicate}" appears twice`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function tooMany(): ApiError {
  return new ApiError("invalid_parameter", `Invalid "products": an account has at most ${MAX_PRODUCTS} products; remove one first`);
}

function notFound(target: string): ApiError {
  return new ApiError("not_found", `Cannot find product "${target}"`);
}
