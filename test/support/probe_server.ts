/**
 * Serves a router that only tests mount (probe procedures exercising a platform helper
 * before any area uses it) through the real HTTP app on a loopback port.
 */
import type { AnyRouter } from "@trpc/server";
import type { Services } from "../../core/context.ts";
import { createHttpApp } from "../../adapters/http/create_http_app.ts";
import { listen } from "../../adapters/http/listen.ts";

/** A listening probe server. */
export interface ProbeServer {
  url: string;
  /** POSTs JSON with a Bearer key and parses the answer. */
  post(path: string, key: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** Starts `router` over `services` on 127.0.0.1 with a free port. */
export async function serveProbe(router: AnyRouter, services: Services): Promise<ProbeServer> {
  const listening = await listen(createHttpApp(router, services, { trustProxy: true }), { port: 0, host: "127.0.0.1" });
  return {
    url: listening.url,
    async post(path, key, body, headers = {}) {
      const response = await fetch(`${listening.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    },
    close: () => listening.close(),
  };
}
