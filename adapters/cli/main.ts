/** The `threadline` command: `npm start` runs `serve`; `npm run cli -- <command>` runs the rest. */
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../../routers/index.ts";
import { buildOpenApiDocument } from "../../core/docs/openapi.ts";
import { ApiError } from "../../core/errors.ts";
import { parseArgs } from "./args.ts";
import { serveCommand } from "./serve_command.ts";
import { mcpCommand } from "./mcp_command.ts";
import { ADMIN_COMMANDS, runAdminCommand } from "./admin_commands.ts";
import { accountsConnectCommand } from "./accounts_connect_command.ts";
import { xCheckCommand } from "./x_check_command.ts";

const HELP = `threadline <command>

  serve [--port 8787] [--host 127.0.0.1] [--demo-file PATH] [--data-dir DIR]
  mcp [--base-url URL/v1] [--toolsets a,b] [--data-dir DIR]
                                   MCP tools over stdio for a local agent (key: THREADLINE_API_KEY)
  openapi                          print the OpenAPI document (no server, no database)
  migrate                          apply database migrations
  demo --json                      create or refresh the demo world; print it as JSON
  accounts create --name N --username U [--plan pro] [--subscription active] [--email E] [--premium] [--not-onboarded]
  accounts link --user ID --username U      accounts share --account ID --with-user ID [--permission viewer|editor]
  accounts list                    accounts x-budget --user ID --usd N|none   (a user's monthly X budget; none: X_MONTHLY_BUDGET_USD)
  accounts connect --user ID|EMAIL [--port 8788] [--timeout 300] [--json]
                                   connect an X account: prints X's consent URL, waits on http://127.0.0.1:PORT/connect/x/callback
  x check [--json]                 check the X app token and every connected account (exit 0 healthy, 1 attention, 2 not configured)
  accounts x-oauth1 --user ID      store an account's OAuth 1.0a token (X_ACCESS_TOKEN, X_ACCESS_TOKEN_SECRET; docs/x.md)
  keys create --user ID [--name N] [--scopes read|read,write]
  keys list --user ID [--include-revoked]   keys rotate --key ID   keys revoke --key ID
  workers create --account ID --name N --shape formats|niche|fresh --topic-source product|custom|niche
                 [--product ID] [--topic T] [--keywords a,b] [--batch-size 3] [--days 1,3,5] [--time 09:00] [--timezone Europe/London] [--inactive]
  plug-templates create --account ID --text T [--media OBJECT_KEY]

Configuration comes from the environment (DATABASE_URL, REDIS_URL, DATA_DIR, ...: see README).`;

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const [command] = args.words;
  if (!command || command === "help" || args.flags.help) return void console.log(HELP);
  if (command === "serve") return serveCommand(args);
  if (command === "mcp") return mcpCommand(args);
  if (command === "openapi") {
    const serverUrl = process.env.PUBLIC_URL;
    return void process.stdout.write(`${JSON.stringify(buildOpenApiDocument(appRouter as AnyRouter, { serverUrl }), null, 2)}\n`);
  }
  const pair = args.words.slice(0, 2).join(" ");
  if (pair === "accounts connect") return void (process.exitCode = await accountsConnectCommand(args));
  if (pair === "x check") return void (process.exitCode = await xCheckCommand(args));
  if (await runAdminCommand(args)) return;
  throw new Error(`Unknown command "${args.words.join(" ")}" (commands: serve, mcp, openapi, accounts connect, x check, ${ADMIN_COMMANDS.join(", ")})`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof ApiError ? `Error [${error.code}]: ${error.message}` : `Error: ${(error as Error).message}`);
  process.exit(1);
});
