/**
 * Users and their accounts. In the real service these come from the companion app;
 * here the CLI and the demo world create them. Each write is one transaction.
 */
import type { Queryable, Sql } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { PLANS } from "../limits/plans.ts";
import { WORKING_SUBSCRIPTIONS } from "../auth/gates.ts";

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
    const [row] = await tx<{ id: number }[]>`
      insert into users (name, email, plan, subscription_status, onboarded)
      values (${user.name}, ${user.email ?? null}, ${plan}, ${status}, ${user.onboarded ?? true})
      returning id`;
    const mainAccountId = await insertAccount(tx, row.id, null, main);
    return { userId: row.id, mainAccountId };
  });
}

/** Links another account to a user's main account. */
export async function linkAccount(sql: Sql, userId: number, account: AccountInput): Promise<string> {
  return sql.begin(async (tx) => {
    const [main] = await tx<{ id: string }[]>`
      select id from accounts where user_id = ${userId} and main_account_id is null for update`;
    if (!main) throw new ApiError("not_found", `Cannot find user "${userId}"`);
    return insertAccount(tx, userId, main.id, account);
  });
}

/** Shares an account with another user (viewer or editor); sharing again changes the permission. */
export async function shareAccount(sql: Sql, accountId: string, userId: number, permission: "viewer" | "editor"): Promise<void> {
  await sql`
    insert into account_shares (account_id, user_id, permission) values (${accountId}, ${userId}, ${permission})
    on conflict (account_id, user_id) do update set permission = excluded.permission`;
}

/** Changes a user's plan, subscription or onboarding. */
export async function updateUser(sql: Sql, userId: number, changes: { plan?: string; subscriptionStatus?: string; onboarded?: boolean }): Promise<void> {
  await sql`
    update users set plan = coalesce(${changes.plan ?? null}, plan),
                     subscription_status = coalesce(${changes.subscriptionStatus ?? null}, subscription_status),
                     onboarded = coalesce(${changes.onboarded ?? null}, onboarded)
     where id = ${userId}`;
}

/** The user with `email` and its main account, or undefined. */
export async function userByEmail(sql: Sql, email: string) {
  const [row] = await sql<{ user_id: number; main_account_id: string }[]>`
    select u.id as user_id, a.id as main_account_id
      from users u join accounts a on a.user_id = u.id and a.main_account_id is null
     where u.email = ${email}`;
  return row;
}

async function insertAccount(sql: Queryable, userId: number, mainAccountId: string | null, account: AccountInput): Promise<string> {
  const id = account.id ?? randomAccountId();
  await sql`
    insert into accounts (id, user_id, main_account_id, username, name, avatar_url, x_premium)
    values (${id}, ${userId}, ${mainAccountId}, ${account.username.replace(/^@/, "")}, ${account.name},
            ${account.avatarUrl ?? `https://x.com/${account.username.replace(/^@/, "")}/photo`}, ${account.xPremium ?? false})`;
  return id;
}

/** A 19-digit id shaped like the social network's user ids. */
function randomAccountId(): string {
  return `17${String(Math.floor(Math.random() * 1e17)).padStart(17, "0")}`;
}
