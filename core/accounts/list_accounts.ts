/**
 * `GET /v1/accounts` (spec: Identity and context): the main account first, then
 * linked and shared ones. Its pagination has no `total` (rule 4). When linked or
 * shared accounts cannot be verified it degrades to the main account only with
 * `degraded: true` instead of failing or answering stale data (rule 9).
 */
import type { z } from "zod";
import type { KeyContext } from "../context.ts";
import type { account, ListAccountsInput, xConnection } from "./account_schema.ts";
import type { Queryable } from "../db/sql.ts";
import { connectionsOf } from "./x_connections_queries.ts";
import { connectionView } from "./x_connection_view.ts";
import { accountById, reachableAccounts, type ReachableAccountRow } from "./accounts_queries.ts";
import { accountsVerifiable } from "./verify_accounts.ts";

/** Lists the accounts the key reaches. */
export async function listAccounts(ctx: KeyContext, input: ListAccountsInput) {
  const { sql } = ctx.services;
  const { principal } = ctx;
  if (!accountsVerifiable(ctx)) {
    const main = await accountById(sql, principal.mainAccountId);
    const rows: ReachableAccountRow[] = main ? [{ ...main, relation: "main", permission: "owner", workspace_id: main.id }] : [];
    const connections = await connectionViews(sql, rows);
    return { data: rows.map((row) => toAccount(row, connections)), pagination: { page: 1, limit: input.limit, has_more: false }, degraded: true as const };
  }
  const rows = await reachableAccounts(sql, principal.userId);
  const start = (input.page - 1) * input.limit;
  const page = rows.slice(start, start + input.limit);
  const connections = await connectionViews(sql, page);
  return {
    data: page.map((row) => toAccount(row, connections)),
    pagination: { page: input.page, limit: input.limit, has_more: rows.length > start + input.limit },
  };
}

/** The X connections of the listed accounts, as shown (shared accounts' belong to their owner and are not shown). */
async function connectionViews(sql: Queryable, rows: readonly ReachableAccountRow[]): Promise<Map<string, z.infer<typeof xConnection>>> {
  const own = rows.filter((row) => row.relation === "main" || row.relation === "linked").map((row) => row.id);
  const views = new Map<string, z.infer<typeof xConnection>>();
  for (const row of await connectionsOf(sql, own)) views.set(row.account_id, connectionView(row));
  return views;
}

function toAccount(row: ReachableAccountRow, connections: Map<string, z.infer<typeof xConnection>>): z.infer<typeof account> {
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
    x_connection: connections.get(row.id) ?? null,
  };
}
