/**
 * `POST /v1/workers/suggestions/{id}/dismiss` (spec: States, Worker suggestion): from
 * `to_review`, `drafted` or `scheduled` to `dismissed`. No post is created or removed: an
 * already saved post stays (delete it via `DELETE /v1/scheduled-posts/{id}`), and the
 * row reads back under `status=dismissed` even if saved first. No `Idempotency-Key`
 * support (spec: Idempotency); dismissing a dismissed suggestion answers its first
 * `dismissed_at` and changes nothing.
 */
import type { KeyContext } from "../context.ts";
import { markDismissed } from "./workers_queries.ts";
import { reachableSuggestion, suggestionNotFound } from "./suggestion_access.ts";
import type { SuggestionByIdInput } from "./worker_schema.ts";

/** Dismisses suggestion `id`; answers `{ id, dismissed_at }`. */
export async function dismissSuggestion(ctx: KeyContext, input: SuggestionByIdInput) {
  const { sql, clock } = ctx.services;
  await reachableSuggestion(ctx, input.id, { accountId: input.account_id, write: true });
  const row = await markDismissed(sql, input.id, new Date(clock.now()));
  if (!row?.dismissed_at) throw suggestionNotFound(input.id);
  return { data: { id: row.id, dismissed_at: row.dismissed_at.toISOString() } };
}
