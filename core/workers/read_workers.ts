/**
 * `GET /v1/workers` and `GET /v1/workers/suggestions` (spec: Workers). Reading changes
 * nothing and spends no credits (supplement 3.3: "Workers reads/actions" are free).
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { pageInfo } from "../schema.ts";
import type { ListSuggestionsInput } from "./worker_schema.ts";
import { toSuggestion, toWorker } from "./worker_view.ts";
import { countSuggestions, listSuggestionRows, workerById, workersOfAccount } from "./workers_queries.ts";

/** The account's Workers, oldest first; not paginated (spec: "lists Workers (not paginated)"). */
export async function listWorkers(ctx: AccountContext) {
  const rows = await workersOfAccount(ctx.services.sql, ctx.account.id);
  return { data: rows.map(toWorker) };
}

/** A page of the account's suggestions, newest first; `worker_id` must be one of the account's Workers. */
export async function listSuggestions(ctx: AccountContext, input: ListSuggestionsInput) {
  const { sql } = ctx.services;
  if (input.worker_id !== undefined) {
    const owner = await workerById(sql, input.worker_id);
    // Spec: "unknown or foreign id gives 404 worker_not_found"; foreign means not this account's.
    if (!owner || owner.account_id !== ctx.account.id) throw new ApiError("worker_not_found", `Cannot find Worker "${input.worker_id}"`);
  }
  const filter = { accountId: ctx.account.id, status: input.status === "all" ? undefined : input.status, workerId: input.worker_id };
  const offset = (input.page - 1) * input.limit;
  const rows = await listSuggestionRows(sql, { ...filter, limit: input.limit, offset });
  const total = rows[0]?.total ?? (offset > 0 ? await countSuggestions(sql, filter) : 0);
  return { data: rows.map(toSuggestion), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}
