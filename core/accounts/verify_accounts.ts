/**
 * Linked and shared accounts are verified against the account directory before use.
 * The directory is this database; `THREADLINE_FAULTS=accounts` makes verification
 * fail so the spec's fail-closed answer (rule 9) is testable.
 */
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";

/** True when linked and shared accounts can be verified right now. */
export function accountsVerifiable(ctx: Context): boolean {
  return !ctx.services.faults.has("accounts");
}

/** Throws `503 accounts_unavailable` when linked or shared accounts cannot be verified. */
export function assertAccountsVerifiable(ctx: Context): void {
  if (!accountsVerifiable(ctx)) {
    throw new ApiError("accounts_unavailable", "Linked and shared accounts cannot be verified right now; the main account still works, retry shortly");
  }
}
