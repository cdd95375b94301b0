/**
 * The operator's API: users, their accounts and API keys, and the demo world. In the real
 * service these come from the companion app; here the `threadline` CLI and embedders
 * (`threadline.admin`, mod.ts) use this one set of functions, on a running instance,
 * without stopping it.
 */
import type { Services } from "../context.ts";
import { createKey, type IssuedKey, revokeKey, rotateKey } from "../auth/keys.ts";
import { type KeyRow, keysOfUser } from "../auth/keys_queries.ts";
import { type AccountInput, createUser, linkAccount, shareAccount, type UserInput } from "../accounts/users.ts";
import { usersWithMainAccount } from "../accounts/users_queries.ts";
import { type DemoWorld, ensureDemoWorld } from "../demo/demo_world.ts";
import { setUserXBudget } from "../x_usage/x_usage_queries.ts";

/**
 * A user to create with its main account (`account.id`: the network's numeric id, generated
 * when absent; `account.name` defaults to the user's name).
 */
export type NewUser = UserInput & { account: Omit<AccountInput, "name"> & { name?: string } };

/** What an operator can do. Every method is one transaction or none. */
export interface AdminApi {
  /** Creates a user (plan `pro` and an active subscription by default, onboarded) with its main account. */
  createUser(user: NewUser): Promise<{ userId: number; mainAccountId: string }>;
  /** Links another account to a user's main account; answers its id. */
  linkAccount(userId: number, account: AccountInput): Promise<{ accountId: string }>;
  /** Shares `accountId` with another user as `viewer` (read-only) or `editor`. */
  shareAccount(accountId: string, withUserId: number, permission?: "viewer" | "editor"): Promise<void>;
  /** The users with their main account. */
  listUsers(): ReturnType<typeof usersWithMainAccount>;
  /** Issues an API key (scopes `read`, or `read` and `write`, the default); the key is in the answer only. */
  createKey(options: { userId: number; name?: string; scopes?: readonly string[] }): Promise<IssuedKey>;
  /** Replaces a key with a new one of the same name and scopes, revoking the old one. */
  rotateKey(keyId: number): Promise<IssuedKey>;
  /** Revokes a key (this process at once; other processes within the key cache's bound). */
  revokeKey(keyId: number): Promise<void>;
  /** A user's keys (never the keys themselves). */
  listKeys(userId: number, options?: { includeRevoked?: boolean }): Promise<KeyRow[]>;
  /** Creates the demo world, or refreshes its keys (docs/demo_world.md). */
  demoWorld(): Promise<DemoWorld>;
  /** Sets a user's monthly X budget in USD (docs/x.md "X's prices and your budget"); null: back to `X_MONTHLY_BUDGET_USD`. */
  setXBudget(userId: number, budgetUsd: number | null): Promise<void>;
}

/** The admin API over `services`. */
export function adminApi(services: Services): AdminApi {
  const { sql, keyCache, settings } = services;
  return {
    createUser: ({ account, ...user }) => createUser(sql, user, { ...account, name: account.name ?? user.name }),
    linkAccount: async (userId, account) => ({ accountId: await linkAccount(sql, userId, account) }),
    shareAccount: (accountId, withUserId, permission = "viewer") => shareAccount(sql, accountId, withUserId, permission),
    listUsers: () => usersWithMainAccount(sql),
    createKey: ({ userId, name = "api", scopes = ["read", "write"] }) => createKey(sql, { userId, name, scopes, prefix: settings.keyPrefix }),
    rotateKey: (keyId) => rotateKey(sql, keyCache, keyId, settings.keyPrefix),
    revokeKey: (keyId) => revokeKey(sql, keyCache, keyId),
    listKeys: (userId, options = {}) => keysOfUser(sql, userId, options.includeRevoked === true),
    demoWorld: () => ensureDemoWorld(services),
    setXBudget: async (userId, budgetUsd) => {
      if (budgetUsd !== null && !(Number.isFinite(budgetUsd) && budgetUsd >= 0))
        throw new Error(`The monthly X budget must be a number of USD of at least 0, got "${budgetUsd}"`);
      if (!(await setUserXBudget(sql, userId, budgetUsd))) throw new Error(`Cannot find user "${userId}"`);
    },
  };
}

/** The names of the admin methods (for an API whose instance opens on first use). */
export const ADMIN_METHODS = [
  "createUser",
  "linkAccount",
  "shareAccount",
  "listUsers",
  "createKey",
  "rotateKey",
  "revokeKey",
  "listKeys",
  "demoWorld",
  "setXBudget",
] as const satisfies readonly (keyof AdminApi)[];

/** An AdminApi whose calls first wait for `open` (an instance that opens on first use). */
export function deferredAdmin(open: () => Promise<AdminApi>): AdminApi {
  const admin: Record<string, unknown> = {};
  for (const name of ADMIN_METHODS) admin[name] = async (...args: unknown[]) => ((await open())[name] as (...a: unknown[]) => unknown)(...args);
  return admin as unknown as AdminApi;
}
