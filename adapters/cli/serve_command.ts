/**
 * `threadline serve` (what `npm start` runs): opens storage, migrates, listens. On the
 * first start of an empty embedded database it creates the demo world and prints a
 * write key so `curl` works at once; `--demo-file PATH` writes the demo world as JSON
 * once listening (ARCHITECTURE: Operating contract).
 */
import { writeFile } from "node:fs/promises";
import type { AnyRouter } from "@trpc/server";
import { appRouter } from "../../routers/index.ts";
import { ensureDemoWorld, isEmptyDatabase, type DemoWorld } from "../../core/demo/demo_world.ts";
import { openRuntime } from "../runtime/open_runtime.ts";
import { configFromEnv, modelSettingsOf, networkSettingsOf } from "../runtime/config.ts";
import { listen } from "../http/listen.ts";
import { startJobRunner } from "../../jobs/index.ts";
import { type Args, integerFlag, stringFlag } from "./args.ts";

/** Runs the server until SIGINT or SIGTERM. */
export async function serveCommand(args: Args): Promise<void> {
  const config = configFromEnv();
  if (args.flags["data-dir"]) config.dataDir = stringFlag(args, "data-dir");
  const port = integerFlag(args, "port") ?? Number(process.env.PORT ?? 8787);
  const host = stringFlag(args, "host") ?? process.env.HOST ?? "127.0.0.1";
  const runtime = await openRuntime(appRouter as AnyRouter, config);
  const { sql, keyCache, settings } = runtime.services;
  const embedded = runtime.database.mode === "embedded";
  let world: DemoWorld | undefined;
  let firstStart = false;
  if (embedded && (await isEmptyDatabase(sql))) {
    world = await ensureDemoWorld(runtime.services);
    firstStart = true;
  }
  const listening = await listen(runtime.app, { port, host });
  // Background work: worker threads on PostgreSQL, the main thread on embedded PGlite.
  const jobs = await startJobRunner({ databaseUrl: config.databaseUrl, sql, network: runtime.services.network, networkSettings: networkSettingsOf(config), media: runtime.services.media, mediaConfig: runtime.mediaConfig, model: runtime.services.model, modelSettings: modelSettingsOf(config) });
  const demoFile = stringFlag(args, "demo-file");
  if (demoFile) {
    world ??= await ensureDemoWorld(runtime.services);
    await writeFile(demoFile, JSON.stringify({ base_url: `${listening.url}/v1`, trpc_url: `${listening.url}/trpc`, ...world }, null, 2));
  }
  const storage = embedded ? `embedded PGlite in ${config.dataDir ?? ".threadline"}` : "PostgreSQL";
  console.log(`Threadline listening on ${listening.url} (${storage}; counters ${config.redisUrl ? "in Redis" : "in memory"})`);
  console.log(`  REST ${listening.url}/v1   tRPC ${listening.url}/trpc   docs ${listening.url}/v1/docs`);
  if (firstStart && world) {
    console.log(`  Demo world created. Write key (shown once): ${world.keys.write}`);
    console.log(`  Try: curl -H "Authorization: Bearer ${world.keys.write}" ${listening.url}/v1/tags`);
  } else if (!demoFile) {
    console.log('  Create a key with: npm run cli -- keys create --user <id> --name laptop   (users: npm run cli -- accounts list)');
  }
  const stop = async () => {
    await listening.close();
    await jobs.stop();
    await runtime.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
