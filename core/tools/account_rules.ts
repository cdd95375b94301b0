/** The account's standing writing rules (context `rules`), which every writing tool passes to the model. */
import type { AccountContext } from "../context.ts";
import { contextSettingsOf } from "../account_context/account_context.ts";

/** The rules text, or null when the account has none. */
export async function accountRules(ctx: AccountContext): Promise<string | null> {
  return (await contextSettingsOf(ctx.services.sql, ctx.account.id)).rules;
}
