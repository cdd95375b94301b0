/**
 * `GET`, `PATCH` and `PUT /v1/context` (supplement: Context; ARCHITECTURE contract:
 * `PUT` replaces the settings, absent fields returning to their defaults; `PATCH`
 * changes only the fields sent). Products travel as their own sub-resources; a
 * `products` array here adds or restores by url (`PATCH`) or replaces the list (`PUT`).
 */
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { activeProducts, contextForUpdate, contextRow, saveSettings } from "./context_queries.ts";
import { applySettingsChange, type ContextSettings, type ContextWriteInput, defaultContextSettings, settingsFromStore } from "./context_schema.ts";
import { addProductsIn, replaceProductsIn, toProduct } from "./products.ts";

/** The account's context: settings, the generated style guide and products. */
export async function readContext(ctx: AccountContext) {
  return { data: await contextView(ctx.services.sql, ctx.account.id) };
}

/** Changes only the fields sent. */
export async function patchContext(ctx: AccountContext, change: ContextWriteInput) {
  await ctx.services.sql.begin(async (tx) => {
    const row = await contextForUpdate(tx, ctx.account.id);
    await saveSettings(tx, ctx.account.id, applySettingsChange(settingsFromStore(row.settings), change));
    if (change.products) await addProductsIn(tx, ctx.account.id, change.products);
  });
  return readContext(ctx);
}

/** Replaces the settings: fields absent return to their defaults. */
export async function replaceContext(ctx: AccountContext, change: ContextWriteInput) {
  await ctx.services.sql.begin(async (tx) => {
    await contextForUpdate(tx, ctx.account.id);
    await saveSettings(tx, ctx.account.id, applySettingsChange(defaultContextSettings(), change));
    if (change.products) await replaceProductsIn(tx, ctx.account.id, change.products);
  });
  return readContext(ctx);
}

/** The settings an account writes with (the AI tools read this). */
export async function contextSettingsOf(sql: Queryable, accountId: string): Promise<ContextSettings> {
  return settingsFromStore((await contextRow(sql, accountId))?.settings);
}

async function contextView(sql: Queryable, accountId: string) {
  const [row, products] = await Promise.all([contextRow(sql, accountId), activeProducts(sql, accountId)]);
  const settings = settingsFromStore(row?.settings);
  return {
    account_id: accountId,
    ...settings,
    style_guide: {
      generated: row?.style_guide ?? null,
      generated_at: row?.style_guide_generated_at?.toISOString() ?? null,
      ...settings.style_guide,
    },
    products: products.map(toProduct),
  };
}
