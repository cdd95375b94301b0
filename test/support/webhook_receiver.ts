/**
 * A webhook receiver on loopback for the webhook suites: records every POST (path, headers,
 * body, arrival time) and answers what the path's behaviour says (a status, or a wait
 * before answering, to time a delivery out).
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST the receiver got. */
export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How the receiver answers one request on a path: a status, and a wait before it. */
export type Behaviour = (request: ReceivedDelivery, index: number) => { status: number; delayMs?: number };

/** A running receiver. */
export interface WebhookReceiver {
  base: string;
  received: ReceivedDelivery[];
  /** Requests received on `path`. */
  on(path: string): ReceivedDelivery[];
  /** Sets how `path` answers (default 200). */
  behave(path: string, behaviour: Behaviour): void;
  /** Resolves once `path` has received `count` requests, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]));
}

/** Starts a receiver on 127.0.0.1. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const delivery = { path, headers: flat(request.headers), body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      const index = received.filter((item) => item.path === path).length;
      received.push(delivery);
      const behaviour: Behaviour = behaviours.get(path) ?? (() => ({ status: 200 }));
      const { status, delayMs } = behaviour(delivery, index);
      const answer = () => {
        if (!response.destroyed) response.writeHead(status, { "Content-Type": "text/plain" }).end("ok");
      };
      if (delayMs) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((item) => item.path === path),
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    async waitFor(path, count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((item) => item.path === path);
        if (got.length >= count) return got;
        if (Date.now() > deadline) throw new Error(`${path} received ${got.length} of ${count} deliveries in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
