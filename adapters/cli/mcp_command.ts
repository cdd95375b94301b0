/**
 * `threadline mcp`: the MCP tools over stdio for a local agent (docs/mcp.md).
 * With `--base-url https://host/v1` it relays to that server's `/v1/mcp`; otherwise it
 * opens the configured storage (as `serve` does, job runner included, so a post the
 * agent queues is published) and runs the tools in this process. The key comes from
 * `THREADLINE_API_KEY`. stdout carries the protocol only: logs go to stderr.
 */
import { createThreadline } from "../../mod.ts";
import { appRouter } from "../../routers/index.ts";
import type { AnyRouter } from "@trpc/server";
import { configFromEnv } from "../runtime/config.ts";
import { openLogger } from "../observability/open_logger.ts";
import { serveStdio } from "../mcp/mcp_stdio.ts";
import { type Args, stringFlag } from "./args.ts";

/** Serves until the client closes stdin. */
export async function mcpCommand(args: Args): Promise<void> {
  const apiKey = process.env.THREADLINE_API_KEY;
  if (!apiKey) throw new Error("THREADLINE_API_KEY is not set: the MCP server acts with that API key");
  const toolsets = stringFlag(args, "toolsets");
  const baseUrl = stringFlag(args, "base-url");
  if (baseUrl) {
    await serveStdio({ kind: "remote", baseUrl }, { apiKey, toolsets });
    return;
  }
  const config = configFromEnv();
  if (args.flags["data-dir"]) config.dataDir = stringFlag(args, "data-dir");
  const logger = openLogger({ logger: config.logger, level: config.logLevel ?? "warn", destination: 2 });
  const threadline = createThreadline({ ...config, logger, runJobs: true });
  const services = await threadline.start();
  try {
    await serveStdio({ kind: "local", router: appRouter as AnyRouter, services }, { apiKey, toolsets });
  } finally {
    await threadline.close();
  }
}
