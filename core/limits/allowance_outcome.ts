/**
 * What an allowance check answers. Daily allowances (`allowances.ts`) and rolling
 * ones (`rolling_allowances.ts`) answer the same shape, so the error builders in
 * `allowance_errors.ts` take either.
 */

/**
 * Who an allowance is counted for: the account owner (all keys and linked accounts
 * of one main account, spec Limits 1) or the whole installation (the "platform
 * fair-use ceiling", spec Limits 11).
 */
export type AllowanceScope = "account" | "platform";

/** One allowance as a check left it. */
export interface AllowanceState {
  name: string;
  scope: AllowanceScope;
  limit: number;
  /** Units this call asked for. */
  units: number;
  /** Units counted in the window, including this call's when it was allowed. */
  used: number;
  /** `max(0, limit - used)`. */
  remaining: number;
  /**
   * When units next come back, epoch seconds: the next UTC midnight for a daily
   * allowance (spec Limits 8), the moment enough counted units leave the window for a
   * rolling one (spec DM limits). A refusal's `Retry-After` is counted to this.
   */
  resetAt: number;
}

/**
 * All charges taken, none taken (spec Limits 5: "A multi-unit call is all or
 * nothing"), or the counters could not answer, which never allows (spec rule 9).
 * `checkedAt` is the time of the check in epoch milliseconds (the services clock, or
 * the database's for a rolling check given no time).
 */
export type AllowanceOutcome =
  | { status: "allowed"; checkedAt: number; allowances: AllowanceState[] }
  | { status: "refused"; checkedAt: number; allowances: AllowanceState[]; blocked: AllowanceState }
  | { status: "unverifiable"; checkedAt: number; cause: unknown };

/** An outcome that did not allow the call: what the error builders take. */
export type AllowanceRefusal = Exclude<AllowanceOutcome, { status: "allowed" }>;
