/**
 * `GET /v1/accounts` (spec: Identity and context): the main account first, then
 * linked and shared ones. Its pagination has no `total` (rule 4). When linked or
 * shared accounts cannot be verified it degrades to the main account only with
 * `degraded: true` instead of failing or answering stale data (rule 9).
 */
import type { z } from "zod";
import type { KeyContext } from "../context.ts";
import type { account, ListAccountsInput } from "./account_schema.ts";
import { accountById, reachableAccounts, type ReachableAccountRow } from "./accounts_queries.ts";
import { accountsVerifiable } from "./verify_accounts.ts";

/** Lists the accounts the key reaches. */
export async function listAccounts(ctx: KeyContext, input: ListAccountsInput) {
  const { sql } = ctx.services;
  const { principal } = ctx;
  if (!accountsVerifiable(ctx)) {
    const main = await accountById(sql, principal.mainAccountId);
    const rows: ReachableAccountRow[] = main ? [{ ...main, relation: "main", permission: "owner", workspace_id: main.id }] : [];
    return { data: rows.map(toAccount), pagination: { page: 1, limit: input.limit, has_more: false }, degraded: true as const };
  }
  const rows = await reachableAccounts(sql, principal.userId);
  const start = (input.page - 1) * input.limit;
  return {
    data: rows.slice(start, start + input.limit).map(toAccount),
    pagination: { page: input.page, limit: input.limit, has_more: rows.length > start + input.limit },
  };
}

function toAccount(row: ReachableAccountRow): z.infer<typeof account> {
  const shared = row.relation === "shared" || row.relation === "linked_shared";
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    avatar_url: row.avatar_url,
    is_main: row.relation === "main",
    relation: row.relation,
    shared,
    permission: row.permission === "owner" ? null : row.permission,
  };
}
