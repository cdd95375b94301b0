/**
 * `threadline accounts connect --user <id or email>`: connects an X account for an operator, like
 * `gh auth login` (docs/x.md, "Connecting from the command line"). It starts the same connection
 * as `POST /v1/accounts/connect` (core/accounts/connect_start.ts) with the loopback callback
 * (connect_loopback.ts) as the redirect URI, prints X's consent URL, waits for the browser to come
 * back, finishes through the server's own callback, and prints the connected account.
 */
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../../routers/index.ts";
import type { Services } from "../../core/context.ts";
import { CONNECT_REQUEST_MS, startConnectFor, xConnectOf } from "../../core/accounts/connect_start.ts";
import type { ConnectedAccount } from "../../core/accounts/connect_finish.ts";
import { userByEmail, userById } from "../../core/accounts/users_queries.ts";
import { failureMessage } from "../http/x_connect_route.ts";
import { openRuntime } from "../runtime/open_runtime.ts";
import { configFromEnv } from "../runtime/config.ts";
import { type Args, integerFlag, requiredFlag } from "./args.ts";
import { type ConnectLoopback, DEFAULT_CONNECT_PORT, openConnectLoopback } from "./connect_loopback.ts";
import { type CommandIo, consoleIo } from "./command_io.ts";

/** How long the command waits for the browser by default. */
const DEFAULT_TIMEOUT_SECONDS = 300;

/** Runs the command; answers the exit code (failures throw, and `main` exits 1). */
export async function accountsConnectCommand(args: Args, io: CommandIo = consoleIo): Promise<number> {
  const config = configFromEnv();
  if (!config.xClientId) throw new Error("Connecting X accounts needs the operator's X app: set X_CLIENT_ID (and X_CLIENT_SECRET for a confidential client)");
  const user = requiredFlag(args, "user");
  const timeoutMs = timeoutOf(args);
  const loopback = await openConnectLoopback(integerFlag(args, "port") ?? DEFAULT_CONNECT_PORT);
  try {
    // The loopback is this run's redirect URI, whatever the server's callback is (PUBLIC_URL need not be set here).
    const runtime = await openRuntime(appRouter as AnyRouter, { ...config, xOAuthCallbackUrl: loopback.callbackUrl });
    try {
      const connected = await connectThroughLoopback(runtime.services, loopback, { user, timeoutMs }, io);
      io.out(args.flags.json ? JSON.stringify(connected, null, 2) : describe(connected));
      return 0;
    } finally {
      await runtime.close();
    }
  } finally {
    await loopback.close();
  }
}

/** Starts a connection for `options.user` with the loopback as redirect URI, waits for X's redirect and answers the connected account. */
export async function connectThroughLoopback(
  services: Services,
  loopback: ConnectLoopback,
  options: { user: string; timeoutMs: number },
  io: CommandIo,
): Promise<ConnectedAccount> {
  const userId = await resolveUser(services, options.user);
  const scoped: Services = { ...services, xConnect: { oauth: xConnectOf({ services }).oauth, callbackUrl: loopback.callbackUrl } };
  const started = await startConnectFor(scoped, userId);
  io.info(`Open this URL in a browser signed in to the X account to connect, and approve:\n\n  ${started.authorize_url}\n`);
  io.info(`Waiting up to ${Math.round(options.timeoutMs / 1000)} s for X to send the browser back to ${started.callback_url}`);
  const outcome = await loopback.waitFor(scoped, started.state, options.timeoutMs);
  if (!outcome.connected) {
    const failure = outcome.failure;
    throw new Error(`The connection failed${failure ? ` (${failure.code}): ${failureMessage(failure)}` : ""}`);
  }
  return outcome.connected;
}

/** `--user`: a user id (as `keys create --user` and `accounts link --user` take) or the user's email. */
async function resolveUser(services: Services, ref: string): Promise<number> {
  const byId = /^\d+$/.test(ref);
  if (!byId && !ref.includes("@")) throw new Error(`--user must be a user id or an email, got "${ref}"`);
  const found = byId ? await userById(services.sql, Number(ref)) : await userByEmail(services.sql, ref);
  if (!found) throw new Error(`No user "${ref}" (see threadline accounts list)`);
  return found.user_id;
}

/** `--timeout` in seconds: at most the life of a started connection (10 minutes). */
function timeoutOf(args: Args): number {
  const seconds = integerFlag(args, "timeout") ?? DEFAULT_TIMEOUT_SECONDS;
  const most = CONNECT_REQUEST_MS / 1000;
  if (seconds < 1 || seconds > most)
    throw new Error(`--timeout must be from 1 to ${most} seconds (a started connection lasts ${most / 60} minutes), got "${seconds}"`);
  return seconds * 1000;
}

function describe(connected: ConnectedAccount): string {
  const relation = connected.relation === "main" ? "the user's main account" : `a linked account${connected.created ? " (new)" : ""}`;
  return `Connected @${connected.username} (X user id ${connected.account_id}) as ${relation}`;
}
