/**
 * A loopback fake of an OpenAI-compatible server (`/v1/chat/completions`,
 * `/v1/images/generations`) for testing the real client without mocking modules
 * (ARCHITECTURE: "The outside world is a port with two adapters"). Replies are scripted
 * per request, in order: an answer with usage, an error status with headers (429 with
 * Retry-After), a hang (never answers), malformed JSON, an image. Every request is
 * recorded so tests assert the headers and the body the client sent.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply. */
export type FakeReply =
  | { kind: "chat"; text: string; usage?: { prompt_tokens: number; completion_tokens: number } | null; model?: string }
  | { kind: "image"; b64?: string }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" }
  | { kind: "malformed"; body?: string };

/** A request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** When it arrived (ms since the epoch), to measure backoff. */
  at: number;
}

/** A running fake. */
export interface FakeOpenAiServer {
  /** API root to configure as `AI_BASE_URL` (ends in `/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies for the next requests, in order; an empty queue answers a default chat or image. */
  script(...replies: FakeReply[]): void;
  /**
   * Answers by the request body when the queue is empty (concurrent calls arrive in any
   * order, so a reply meant for one recipient must be chosen by what was asked); `undefined`
   * from it, or no responder, falls back to the default.
   */
  respondWith(responder: ((body: any) => FakeReply | undefined) | undefined): void;
  close(): Promise<void>;
}

/** A valid 1x1 PNG, base64. */
export const TINY_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Starts the fake on 127.0.0.1 with an OS-chosen port. */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((body: any) => FakeReply | undefined) | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // Recorded as text: a test may assert the client sent invalid JSON.
      }
      const path = request.url ?? "/";
      requests.push({ method: request.method ?? "GET", path, headers: request.headers, body, at: Date.now() });
      const known = path === "/v1/chat/completions" || path === "/v1/images/generations";
      const reply =
        queue.shift() ?? responder?.(body) ?? (path === "/v1/images/generations" ? { kind: "image" as const } : { kind: "chat" as const, text: "Fake answer" });
      if (!known) return send(response, 404, { error: { message: `Unknown path ${path}` } });
      switch (reply.kind) {
        case "hang":
          return; // never answers; close() destroys the socket
        case "malformed":
          response.writeHead(200, { "Content-Type": "application/json" });
          return response.end(reply.body ?? '{"choices": [ {"message": ');
        case "status":
          return send(response, reply.status, reply.body ?? { error: { message: `Scripted ${reply.status}`, type: "scripted" } }, reply.headers);
        case "image":
          return send(response, 200, { created: 1, data: [{ b64_json: reply.b64 ?? TINY_PNG_BASE64 }] });
        case "chat": {
          const model = reply.model ?? (body as { model?: string } | null)?.model ?? "fake-model";
          const usage = reply.usage === null ? undefined : (reply.usage ?? { prompt_tokens: 100, completion_tokens: 20 });
          return send(response, 200, {
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            created: 1,
            model,
            choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }],
            ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
          });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    respondWith: (next) => {
      responder = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
