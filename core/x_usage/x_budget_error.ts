/**
 * The refusal of X-spending work once a user's monthly X budget would be crossed (docs/x.md
 * "X's prices and your budget"). A NetworkRejectedError, so the publisher and the DM sender end
 * the work for good (core/network/permanent_failure.ts) instead of retrying it.
 */
import { NetworkRejectedError } from "../network/network_errors.ts";

/** The monthly X budget of the acting account's user is spent: nothing was sent to X. */
export class XBudgetSpentError extends NetworkRejectedError {
  /** The budget in USD. */
  readonly budgetUsd: number;
  constructor(budgetUsd: number) {
    super("invalid", `The monthly X budget of $${budgetUsd} is spent`);
    this.name = "XBudgetSpentError";
    this.budgetUsd = budgetUsd;
  }
}
