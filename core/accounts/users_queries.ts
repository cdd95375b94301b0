/** SQL of users, their accounts and shares (core/accounts/users.ts orchestrates). */
import type { Queryable, Sql } from "../db/sql.ts";
import type { AccountInput } from "./users.ts";

/** Inserts a user; answers its id. */
export async function insertUser(
  sql: Queryable,
  user: { name: string; email: string | null; plan: string; status: string; onboarded: boolean },
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into users (name, email, plan, subscription_status, onboarded)
    values (${user.name}, ${user.email}, ${user.plan}, ${user.status}, ${user.onboarded})
    returning id`;
  return row.id;
}

/** Locks the main account of `userId` (in the caller's transaction), or undefined. */
export async function lockMainAccount(sql: Queryable, userId: number): Promise<{ id: string } | undefined> {
  const [main] = await sql<{ id: string }[]>`
    select id from accounts where user_id = ${userId} and main_account_id is null for update`;
  return main;
}

/** Inserts an account of `userId` (a main account when `mainAccountId` is null); answers its id. */
export async function insertAccount(sql: Queryable, userId: number, mainAccountId: string | null, account: AccountInput & { id: string }): Promise<string> {
  const id = account.id;
  await sql`
    insert into accounts (id, user_id, main_account_id, username, name, avatar_url, x_premium)
    values (${id}, ${userId}, ${mainAccountId}, ${account.username.replace(/^@/, "")}, ${account.name},
            ${account.avatarUrl ?? `https://x.com/${account.username.replace(/^@/, "")}/photo`}, ${account.xPremium ?? false})`;
  return id;
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

/** The user `userId` and its main account, or undefined. */
export async function userById(sql: Queryable, userId: number) {
  const [row] = await sql<{ user_id: number; main_account_id: string }[]>`
    select u.id::int as user_id, a.id as main_account_id
      from users u join accounts a on a.user_id = u.id and a.main_account_id is null
     where u.id = ${userId}`;
  return row;
}

/** Every user with its main account, by id (the CLI's `accounts list`). */
export async function usersWithMainAccount(sql: Queryable) {
  return sql<{ user_id: number; name: string; plan: string; subscription_status: string; main_account_id: string; username: string }[]>`
    select u.id as user_id, u.name, u.plan, u.subscription_status, a.id as main_account_id, a.username
      from users u join accounts a on a.user_id = u.id and a.main_account_id is null order by u.id`;
}
