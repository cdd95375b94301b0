/**
 * The operator commands: `migrate`, `demo`, `accounts ...` and `keys ...`. They open
 * the configured storage (migrating it), do one thing through the admin API (the same
 * functions embedders call as `threadline.admin`), print JSON and exit.
 */
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../../routers/index.ts";
import type { Services } from "../../core/context.ts";
import { adminApi } from "../../core/admin/admin_api.ts";
import { openRuntime } from "../runtime/open_runtime.ts";
import { configFromEnv } from "../runtime/config.ts";
import { type Args, integerFlag, requiredFlag, stringFlag } from "./args.ts";
import { createWorkerCommand } from "./workers_command.ts";
import { createPlugTemplateCommand } from "./plug_templates_command.ts";
import { storeOAuth1Command } from "./store_oauth1_command.ts";

type Command = (services: Services, args: Args) => Promise<unknown>;

const commands: Record<string, Command> = {
  migrate: async () => ({ migrated: true }),
  demo: async (services, args) => {
    const world = await adminApi(services).demoWorld();
    const base = stringFlag(args, "base-url", process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`)!.replace(/\/+$/, "");
    return { base_url: `${base}/v1`, trpc_url: `${base}/trpc`, ...world };
  },
  "accounts create": async (services, args) =>
    adminApi(services).createUser({
      name: requiredFlag(args, "name"),
      email: stringFlag(args, "email"),
      plan: stringFlag(args, "plan"),
      subscriptionStatus: stringFlag(args, "subscription"),
      onboarded: args.flags["not-onboarded"] ? false : undefined,
      account: {
        id: stringFlag(args, "account-id"),
        username: requiredFlag(args, "username"),
        name: stringFlag(args, "display-name") ?? requiredFlag(args, "name"),
        xPremium: args.flags.premium === true,
      },
    }),
  "accounts link": async (services, args) => {
    const { accountId } = await adminApi(services).linkAccount(requiredInteger(args, "user"), {
      id: stringFlag(args, "account-id"),
      username: requiredFlag(args, "username"),
      name: stringFlag(args, "name") ?? requiredFlag(args, "username"),
    });
    return { account_id: accountId };
  },
  "accounts share": async (services, args) => {
    const permission = stringFlag(args, "permission", "viewer");
    if (permission !== "viewer" && permission !== "editor") throw new Error("--permission must be viewer or editor");
    await adminApi(services).shareAccount(requiredFlag(args, "account"), requiredInteger(args, "with-user"), permission);
    return { shared: true };
  },
  "accounts list": async (services) => adminApi(services).listUsers(),
  "accounts x-oauth1": storeOAuth1Command,
  "keys create": async (services, args) => {
    const scopes = (stringFlag(args, "scopes", "read,write") ?? "").split(",");
    const { key, record } = await adminApi(services).createKey({ userId: requiredInteger(args, "user"), name: stringFlag(args, "name", "cli")!, scopes });
    return { key, note: "Shown once; store it now", ...record };
  },
  "keys list": async (services, args) => adminApi(services).listKeys(requiredInteger(args, "user"), { includeRevoked: args.flags["include-revoked"] === true }),
  "keys rotate": async (services, args) => {
    const { key, record } = await adminApi(services).rotateKey(requiredInteger(args, "key"));
    return { key, note: "Shown once; the old key is revoked", ...record };
  },
  "keys revoke": async (services, args) => {
    await adminApi(services).revokeKey(requiredInteger(args, "key"));
    return { revoked: true, note: "Other server processes stop accepting it within 30 s" };
  },
  "accounts x-budget": async (services, args) => {
    // `--usd none` goes back to X_MONTHLY_BUDGET_USD (docs/x.md "X's prices and your budget").
    const raw = requiredFlag(args, "usd");
    const budget = raw === "none" ? null : Number(raw);
    if (budget !== null && (raw.trim() === "" || !Number.isFinite(budget) || budget < 0))
      throw new Error(`--usd must be a number of at least 0 or "none", got "${raw}"`);
    const userId = requiredInteger(args, "user");
    await adminApi(services).setXBudget(userId, budget);
    return { user_id: userId, x_monthly_budget_usd: budget };
  },
  "workers create": createWorkerCommand,
  "plug-templates create": createPlugTemplateCommand,
};

/** The admin command names, for help. */
export const ADMIN_COMMANDS = Object.keys(commands);

/** Runs an admin command if `args` names one; answers false otherwise. */
export async function runAdminCommand(args: Args): Promise<boolean> {
  const name = [args.words.slice(0, 2).join(" "), args.words[0]].find((candidate) => candidate in commands);
  if (!name) return false;
  const runtime = await openRuntime(appRouter as AnyRouter, configFromEnv());
  try {
    const result = await commands[name](runtime.services, args);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await runtime.close();
  }
  return true;
}

function requiredInteger(args: Args, name: string): number {
  const value = integerFlag(args, name);
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}
