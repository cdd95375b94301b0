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
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, openRuntime, type Runtime } from "./adapters/runtime/open_runtime.ts";
import type { ThreadlineConfig } from "./adapters/runtime/config.ts";
import type { JobRunner } from "./jobs/index.ts";
import { type AdminApi, adminApi, deferredAdmin } from "./core/admin/admin_api.ts";

export { appRouter } from "./routers/index.ts";
export type { AppRouter } from "./routers/index.ts";
export type { ThreadlineConfig } from "./adapters/runtime/config.ts";
export { configFromEnv } from "./adapters/runtime/config.ts";
export { createCallerFactory } from "./core/trpc.ts";
export { createContextInner } from "./core/context.ts";
export type { Context, Services } from "./core/context.ts";
export type { AdminApi, NewUser } from "./core/admin/admin_api.ts";
export type { ErrorCode } from "./core/errors.ts";
export { ApiError } from "./core/errors.ts";

/** A Threadline instance. */
export interface Threadline {
  /** Answers any request: `/v1/**`, `/trpc/**`. Starts the instance on first use. */
  fetch(request: Request): Promise<Response>;
  /** The tRPC router (for `createCaller` and typed clients). */
  router: AppRouter;
  /**
   * Users, accounts and API keys on this instance (the same functions as `threadline accounts
   * ...` and `threadline keys ...`); the first call opens the instance, and the server keeps
   * serving meanwhile.
   */
  admin: AdminApi;
  /** The OpenAPI 3.1 document (no database needed). */
  openapi(): Record<string, unknown>;
  /** Opens the database (migrating it) and counters, and the job runner when `runJobs`; safe to call more than once. */
  start(): Promise<Services>;
  /**
   * Stops the job runner (running jobs get `shutdownTimeoutMs`, then what they hold is
   * released for another process) and closes connections. Later requests are refused.
   */
  close(): Promise<void>;
}

/** Creates a Threadline instance; nothing is opened until `start()` or the first request. */
export function createThreadline(config: ThreadlineConfig = {}): Threadline {
  let runtime: Promise<Runtime> | undefined;
  let jobs: Promise<JobRunner> | undefined;
  let closed = false;
  // Requests being answered, so close() lets them finish before the pools go.
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const boot = () => {
    if (closed) throw new Error("This Threadline instance is closed; create a new one");
    return (runtime ??= openRuntime(appRouter as AnyRouter, config));
  };
  return {
    router: appRouter,
    admin: deferredAdmin(async () => adminApi((await boot()).services)),
    async fetch(request) {
      const { fetch } = await boot();
      inFlight++;
      try {
        return await fetch(request);
      } finally {
        if (--inFlight === 0) idle?.();
      }
    },
    openapi: () => buildOpenApiDocument(appRouter as AnyRouter, { serverUrl: config.publicUrl }),
    async start() {
      const opened = await boot();
      if (config.runJobs) await (jobs ??= opened.startJobs());
      return opened.services;
    },
    async close() {
      closed = true;
      const boundMs = config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      // Requests in flight and running jobs finish side by side, each within the bound.
      const requestsDone = new Promise<void>((resolve) => {
        if (inFlight === 0) return resolve();
        const timer = setTimeout(resolve, boundMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const jobsStopped = jobs?.then((runner) => runner.stop());
      const [, released] = await Promise.all([requestsDone, jobsStopped]);
      if (released?.length) {
        const fields = { job_ids: released.map((job) => job.id), job_kinds: released.map((job) => job.kind) };
        (await runtime)?.logger.warn(fields, "Jobs still running at shutdown were released for another process");
      }
      if (!runtime) return;
      const opened = runtime;
      runtime = undefined;
      await (await opened).close();
    },
  };
}
