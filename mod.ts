/**
 * Threadline: a self-hostable social content, audience and scheduling API for X.
 *
 * One core of zod-typed tRPC procedures served as the `/v1` REST surface and as typed
 * tRPC at `/trpc`. Mount it in any server that speaks `Request`/`Response`.
 *
 * @example
 * ```ts
 * import { createServer, type RequestListener } from "node:http";
 * import { toNodeHandler } from "srvx/node";
 * import { createThreadline } from "threadline";
 *
 * const threadline = createThreadline({ databaseUrl: process.env.DATABASE_URL });
 * createServer(toNodeHandler(threadline.fetch) as RequestListener).listen(8787);
 * ```
 */
import type { AnyRouter } from "@trpc/server";
import { appRouter, type AppRouter } from "./routers/index.ts";
import { buildOpenApiDocument } from "./core/docs/openapi.ts";
import type { Services } from "./core/context.ts";
import { openRuntime, type Runtime } from "./adapters/runtime/open_runtime.ts";
import type { ThreadlineConfig } from "./adapters/runtime/config.ts";
import { modelSettingsOf, networkSettingsOf } from "./adapters/runtime/config.ts";
import { startJobRunner, type JobRunner } from "./jobs/index.ts";

export type { AppRouter } from "./routers/index.ts";
export type { ThreadlineConfig } from "./adapters/runtime/config.ts";
export { configFromEnv } from "./adapters/runtime/config.ts";
export { createContextInner } from "./core/context.ts";
export type { Context, Services } from "./core/context.ts";

/** A Threadline instance. */
export interface Threadline {
  /** Answers any request: `/v1/**`, `/trpc/**`. Starts the instance on first use. */
  fetch(request: Request): Promise<Response>;
  /** The tRPC router (for `createCaller` and typed clients). */
  router: AppRouter;
  /** The OpenAPI 3.1 document (no database needed). */
  openapi(): Record<string, unknown>;
  /** Opens the database (migrating it) and counters, and the job runner when `runJobs`; safe to call more than once. */
  start(): Promise<Services>;
  /** Closes connections. The instance is finished: later requests are refused. */
  close(): Promise<void>;
}

/** Creates a Threadline instance; nothing is opened until `start()` or the first request. */
export function createThreadline(config: ThreadlineConfig = {}): Threadline {
  let runtime: Promise<Runtime> | undefined;
  let jobs: Promise<JobRunner> | undefined;
  let closed = false;
  const boot = () => {
    if (closed) throw new Error("This Threadline instance is closed; create a new one");
    return (runtime ??= openRuntime(appRouter as AnyRouter, config));
  };
  return {
    router: appRouter,
    async fetch(request) {
      const { app } = await boot();
      return app.fetch(request);
    },
    openapi: () => buildOpenApiDocument(appRouter as AnyRouter, { serverUrl: config.publicUrl }),
    async start() {
      const { services, mediaConfig } = await boot();
      if (config.runJobs) {
        const network = { network: services.network, networkSettings: networkSettingsOf(config) };
        const media = { media: services.media, mediaConfig };
        const model = { model: services.model, modelSettings: modelSettingsOf(config) };
        await (jobs ??= startJobRunner({ databaseUrl: config.databaseUrl, sql: services.sql, clock: config.clock, ...network, ...media, ...model }));
      }
      return services;
    },
    async close() {
      closed = true;
      if (jobs) await (await jobs).stop();
      if (!runtime) return;
      const opened = runtime;
      runtime = undefined;
      await (await opened).close();
    },
  };
}
