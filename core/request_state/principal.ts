/** Who is calling: the key and the user it belongs to, as authentication found them. */
import type { Plan } from "../plans/plans.ts";

/** A key scope (spec: Authentication 4). */
export type Scope = "read" | "write";

/** The authenticated caller. */
export interface Principal {
  userId: number;
  userName: string;
  plan: Plan;
  /** `active`, `trialing`, `team` or `lapsed` (spec: Authentication 7). */
  subscriptionStatus: string;
  onboarded: boolean;
  /** Start of the first billing period; monthly credit pools renew on this date (spec: AI credits). */
  billingAnchor: Date;
  /** The user's main account; request budgets are kept against it (spec: Limits 1). */
  mainAccountId: string;
  key: {
    id: number;
    name: string;
    scopes: Scope[];
    display: string;
    createdAt: Date;
    lastUsedAt: Date | null;
  };
}
