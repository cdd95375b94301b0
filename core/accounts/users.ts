/**
 * Users and their accounts. In the real service these come from the companion app;
 * here the CLI and the demo world create them. Each write is one transaction.
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { PLANS } from "../plans/plans.ts";
import { WORKING_SUBSCRIPTIONS } from "../auth/gates.ts";
import { insertAccount, insertUser, lockMainAccount } from "./users_queries.ts";

export { shareAccount, updateUser, userByEmail } from "./users_queries.ts";

/** A social-network identity to attach to a user. */
export interface AccountInput {
  /** Numeric text id; generated when absent. */
  id?: string;
  username: string;
  name: string;
  avatarUrl?: string;
  xPremium?: boolean;
}

/** A user to create. */
export interface UserInput {
  name: string;
  email?: string;
  plan?: string;
  subscriptionStatus?: string;
  onboarded?: boolean;
}

/** Creates a user and its main account together. */
export async function createUser(sql: Sql, user: UserInput, main: AccountInput): Promise<{ userId: number; mainAccountId: string }> {
  const plan = user.plan ?? "pro";
  if (!PLANS[plan]) throw new ApiError("invalid_parameter", `Unknown plan "${plan}" (known: ${Object.keys(PLANS).join(", ")})`);
  const status = user.subscriptionStatus ?? "active";
  if (![...WORKING_SUBSCRIPTIONS, "lapsed"].includes(status)) {
    throw new ApiError("invalid_parameter", `Unknown subscription status "${status}" (known: ${[...WORKING_SUBSCRIPTIONS, "lapsed"].join(", ")})`);
  }
  return sql.begin(async (tx) => {
    const userId = await insertUser(tx, { name: user.name, email: user.email ?? null, plan, status, onboarded: user.onboarded ?? true });
    const mainAccountId = await insertAccount(tx, userId, null, withId(main));
    return { userId, mainAccountId };
  });
}

/** Links another account to a user's main account. */
export async function linkAccount(sql: Sql, userId: number, account: AccountInput): Promise<string> {
  return sql.begin((tx) => linkAccountIn(tx, userId, account));
}

/** Links another account to a user's main account inside the caller's transaction `tx`. */
export async function linkAccountIn(tx: Queryable, userId: number, account: AccountInput): Promise<string> {
  const main = await lockMainAccount(tx, userId);
  if (!main) throw new ApiError("not_found", `Cannot find user "${userId}"`);
  return insertAccount(tx, userId, main.id, withId(account));
}

/** `account` with its id, generated when absent. */
function withId(account: AccountInput): AccountInput & { id: string } {
  return { ...account, id: account.id ?? randomAccountId() };
}

/** A 19-digit id shaped like the social network's user ids. */
function randomAccountId(): string {
  return `17${String(Math.floor(Math.random() * 1e17)).padStart(17, "0")}`;
}
