/** SQL for context settings and products. */
import type { Queryable } from "../db/sql.ts";
import type { ProductFields } from "./product_schema.ts";

/** A product row. */
export interface ProductRow {
  id: number;
  account_id: string;
  url: string;
  name: string | null;
  description: string | null;
  positioning: string | null;
  features: string | null;
  updates: string | null;
  scraped_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The stored context of an account, if any. */
export async function contextRow(sql: Queryable, accountId: string) {
  const [row] = await sql<{ settings: unknown; style_guide: string | null; style_guide_generated_at: Date | null }[]>`
    select settings, style_guide, style_guide_generated_at from account_context where account_id = ${accountId}`;
  return row;
}

/** The account's context row, locked for a read-modify-write (created empty when missing). */
export async function contextForUpdate(sql: Queryable, accountId: string) {
  await sql`insert into account_context (account_id) values (${accountId}) on conflict (account_id) do nothing`;
  const [row] = await sql<{ settings: unknown }[]>`select settings from account_context where account_id = ${accountId} for update`;
  return row;
}

/** Stores the settings document. */
export async function saveSettings(sql: Queryable, accountId: string, settings: object): Promise<void> {
  await sql`update account_context set settings = ${sql.json(settings as never)}, updated_at = now() where account_id = ${accountId}`;
}

/** Active products of an account, oldest first. */
export async function activeProducts(sql: Queryable, accountId: string): Promise<ProductRow[]> {
  return sql<ProductRow[]>`select * from products where account_id = ${accountId} and deleted_at is null order by created_at, id`;
}

/** A product by id within an account (deleted ones too, so a caller can tell them apart). */
export async function productById(sql: Queryable, accountId: string, id: number): Promise<ProductRow | undefined> {
  const [row] = await sql<ProductRow[]>`select * from products where account_id = ${accountId} and id = ${id}`;
  return row;
}

/**
 * Adds a product by url, or restores a deleted one with its earlier (scraped) details;
 * fields sent replace, fields absent keep their value.
 */
export async function upsertProduct(sql: Queryable, accountId: string, url: string, fields: ProductFields): Promise<ProductRow> {
  const has = (name: keyof ProductFields) => fields[name] !== undefined;
  const [row] = await sql<ProductRow[]>`
    insert into products (account_id, url, name, description, positioning, features, updates)
    values (${accountId}, ${url}, ${fields.name ?? null}, ${fields.description ?? null}, ${fields.positioning ?? null},
            ${fields.features ?? null}, ${fields.updates ?? null})
    on conflict (account_id, url) do update set
      name = case when ${has("name")} then excluded.name else products.name end,
      description = case when ${has("description")} then excluded.description else products.description end,
      positioning = case when ${has("positioning")} then excluded.positioning else products.positioning end,
      features = case when ${has("features")} then excluded.features else products.features end,
      updates = case when ${has("updates")} then excluded.updates else products.updates end,
      deleted_at = null, updated_at = now()
    returning *`;
  return row;
}

/** Soft-deletes products of an account, all or those whose url is not in `keepUrls`. */
export async function deleteProductsExcept(sql: Queryable, accountId: string, keepUrls: string[]): Promise<number> {
  const rows = await sql`
    update products set deleted_at = now(), updated_at = now()
     where account_id = ${accountId} and deleted_at is null and not (url = any(${sql.array(keepUrls)}::text[]))
    returning id`;
  return rows.length;
}

/** Soft-deletes one product; false when it was not active. */
export async function deleteProductRow(sql: Queryable, accountId: string, id: number): Promise<boolean> {
  const rows = await sql`
    update products set deleted_at = now(), updated_at = now()
     where account_id = ${accountId} and id = ${id} and deleted_at is null returning id`;
  return rows.length === 1;
}

/** Fills a product from its scraped page: the title only when it has no name; description and highlights replace. */
export async function saveScrapedProduct(
  sql: Queryable,
  id: number,
  page: { title: string | null; description: string | null; highlights: readonly string[] },
): Promise<ProductRow> {
  const [row] = await sql<ProductRow[]>`
    update products
       set name = coalesce(name, ${page.title}), description = coalesce(${page.description}, description),
           features = coalesce(${page.highlights.length ? page.highlights.join("\n") : null}, features),
           scraped_at = now(), updated_at = now()
     where id = ${id}
    returning *`;
  return row;
}

/** Stores the generated style guide of `accountId`; answers when it was generated. */
export async function saveStyleGuide(sql: Queryable, accountId: string, text: string): Promise<Date> {
  const [row] = await sql<{ style_guide_generated_at: Date }[]>`
    insert into account_context (account_id, style_guide, style_guide_generated_at) values (${accountId}, ${text}, now())
    on conflict (account_id) do update set style_guide = excluded.style_guide, style_guide_generated_at = excluded.style_guide_generated_at, updated_at = now()
    returning style_guide_generated_at`;
  return row.style_guide_generated_at;
}
