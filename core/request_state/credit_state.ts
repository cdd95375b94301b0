/**
 * The credit state a priced call carries (spec: AI credits, Credit headers): whose pool it
 * charges, what it has kept, and the pool as the last movement left it. Charged and
 * refunded by core/credits/; metered handlers read it through `ctx.credits`.
 */
import type { Plan } from "../plans/plans.ts";

/** Whose pool: the account owner (pools are per owner across all keys and accounts). */
export interface CreditOwner {
  ownerId: string;
  plan: Plan;
  billingAnchor: Date;
}

/** What is left, as the headers and `GET /v1/me` report it. */
export interface CreditState {
  remaining: number;
  pool: number;
  bonus: number;
  spent: number;
  period: "monthly" | "daily";
  periodStart: Date;
  /** When the pool renews. */
  resetAt: Date;
}

/** The charge a running call belongs to, and what it has kept so far. */
export interface CreditCall {
  owner: CreditOwner;
  reference: string;
  /** Credits kept for the call so far. */
  kept: number;
  /** The pool as the last movement left it (saves a locking read for the headers). */
  state?: CreditState;
}
