/**
 * `threadline serve` (what `npm start` runs): a Threadline instance (mod.ts, the same
 * composition root embedders use) with its job runner, on a Node listener. On the first
 * start of an empty embedded database it creates the demo world and prints a write key so
 * `curl` works at once; `--demo-file PATH` writes the demo world as JSON once listening
 * (ARCHITECTURE: Operating contract).
 *
 * SIGTERM or SIGINT shuts down gracefully (docs/operations.md): stop accepting connections; let the
 * requests in flight and the running jobs finish within `SHUTDOWN_TIMEOUT_MS`; release the
 * jobs still held past it so another process retries them at once; close the pools; exit 0.
 */
import { rename, writeFile } from "node:fs/promises";
import { createThreadline } from "../../mod.ts";
import { ensureDemoWorld, isEmptyDatabase, type DemoWorld } from "../../core/demo/demo_world.ts";
import { configFromEnv } from "../runtime/config.ts";
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from "../runtime/open_runtime.ts";
import { openLogger } from "../observability/open_logger.ts";
import { listen } from "../http/listen.ts";
import { type Args, integerFlag, stringFlag } from "./args.ts";
import { ensureConsoleBuilt } from "../console/console_assets.ts";

/** Runs the server until SIGINT or SIGTERM. */
export async function serveCommand(args: Args): Promise<void> {
  const config = configFromEnv();
  if (args.flags["data-dir"]) config.dataDir = stringFlag(args, "data-dir");
  const port = integerFlag(args, "port") ?? Number(process.env.PORT ?? 8787);
  const host = stringFlag(args, "host") ?? process.env.HOST ?? "127.0.0.1";
  const logger = openLogger({ logger: config.logger, level: config.logLevel });
  // `serve` always runs the job runner: job threads on PostgreSQL, the main thread on embedded PGlite.
  const threadline = createThreadline({ ...config, logger, runJobs: true });
  const services = await threadline.start();
  const embedded = !config.databaseUrl;
  // Said by the server, not by every CLI command (their output is JSON): an operator's concern.
  if (!embedded && !config.encryptionKey) {
    logger.warn(
      "ENCRYPTION_KEY is not set: webhook secrets are sealed with a key kept in the database itself, so a copy of the database reveals them; set ENCRYPTION_KEY (openssl rand -base64 32), the same on every process",
    );
  }
  let world: DemoWorld | undefined;
  let firstStart = false;
  if (embedded && (await isEmptyDatabase(services.sql))) {
    world = await ensureDemoWorld(services);
    firstStart = true;
  }
  // A clone installed without its scripts builds the console here, once (about a second).
  if (!(await ensureConsoleBuilt())) logger.warn("The web console is not built and cannot be built here: run `npm run build:console`");
  const listening = await listen(threadline.fetch, { port, host });
  const demoFile = stringFlag(args, "demo-file");
  if (demoFile) {
    world ??= await ensureDemoWorld(services);
    // It holds working keys: written 0600 beside its place and renamed over it, so it is never
    // readable by others (even where an older file was) nor seen half written.
    const draft = `${demoFile}.${process.pid}.tmp`;
    await writeFile(draft, JSON.stringify({ base_url: `${listening.url}/v1`, trpc_url: `${listening.url}/trpc`, ...world }, null, 2), { mode: 0o600 });
    await rename(draft, demoFile);
  }
  // The banner stays plain text on stdout (people and the tests read it); everything else is JSON lines.
  const storage = embedded ? `embedded PGlite in ${config.dataDir ?? ".threadline"}` : "PostgreSQL";
  console.log(`Threadline listening on ${listening.url} (${storage}; counters ${config.redisUrl ? "in Redis" : "in memory"})`);
  console.log(`  REST ${listening.url}/v1   tRPC ${listening.url}/trpc   docs ${listening.url}/v1/docs   console ${listening.url}/console`);
  if (firstStart && world) {
    console.log(`  Demo world created. Write key (shown once): ${world.keys.write}`);
    console.log(`  Try: curl -H "Authorization: Bearer ${world.keys.write}" ${listening.url}/v1/tags`);
  } else if (!demoFile) {
    console.log("  Create a key with: npm run cli -- keys create --user <id> --name laptop   (users: npm run cli -- accounts list)");
  }
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal while draining ends the process at once (an impatient operator).
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "Shutting down: draining requests and jobs");
    const boundMs = config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    const httpClosed = listening.close();
    // Keep-alive connections with a request still unanswered past the bound are cut.
    const cut = setTimeout(() => listening.server.closeAllConnections(), boundMs);
    try {
      await threadline.close();
      listening.server.closeAllConnections();
      await httpClosed;
    } catch (error) {
      logger.error({ err: error }, "Shutdown failed");
      process.exit(1);
    } finally {
      clearTimeout(cut);
    }
    logger.info("Stopped");
    // pino writes stdout asynchronously only with a transport; the default destination is synchronous.
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
