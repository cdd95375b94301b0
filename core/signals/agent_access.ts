/**
 * Finds an agent by id among the accounts the key reaches, as contact lists are found
 * (core/contact_lists/list_access.ts; ARCHITECTURE: "Id-addressed calls"): another user's
 * agent reads as missing (`404 agent_not_found`), an `account_id` narrows the search to that
 * account, and a write on a shared account is `403 writes_main_account_only`.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { type AgentRow, agentById } from "./agent_queries.ts";

/** The agent `id` as the caller reaches it, or `404 agent_not_found`. */
export async function reachableAgent(ctx: KeyContext, id: number, options: { accountId?: string; write: boolean }): Promise<AgentRow> {
  const found = await findReachable(
    ctx,
    { accountId: options.accountId, intent: { write: options.write }, narrowTo: "account" },
    () => agentById(ctx.services.sql, id),
    (row) => row.account_id,
  );
  if (!found) throw agentNotFound(id);
  return found.row;
}

/** `404 agent_not_found` for `id`. */
export function agentNotFound(id: number): ApiError {
  return new ApiError("agent_not_found", `Cannot find signal agent "${id}"`);
}
