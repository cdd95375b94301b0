/**
 * A loopback fake of a hosted inspiration media library (the protocol in
 * adapters/inspiration/http_media_library.ts) for testing the HTTP adapter without
 * mocking modules. By default it answers from the simulated library with the request's
 * own filters and `until` as the clock, adding `thumbnail_url` and `media_url` to every
 * item (which the client must drop). Replies can be scripted per request, in order: an
 * error status, a hang, malformed JSON. Every request is recorded.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createSimulatedMediaLibrary } from "../../adapters/inspiration/simulated_media_library.ts";

/** One scripted reply. */
export type FakeMediaReply = { kind: "status"; status: number } | { kind: "hang" } | { kind: "malformed" };

/** A request the fake received. */
export interface RecordedMediaRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A running fake. */
export interface FakeMediaLibraryServer {
  /** The root to configure as `INSPIRATION_MEDIA_URL`. */
  url: string;
  requests: RecordedMediaRequest[];
  script(...replies: FakeMediaReply[]): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 answering from the simulated library of `seed`. */
export async function startFakeMediaLibrary(seed = 7): Promise<FakeMediaLibraryServer> {
  const library = createSimulatedMediaLibrary({ seed });
  const requests: RecordedMediaRequest[] = [];
  const queue: FakeMediaReply[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Recorded as text.
    }
    requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body });
    const reply = queue.shift();
    if (reply?.kind === "hang") {
      hanging.add(response);
      return;
    }
    if (reply?.kind === "malformed") return void response.writeHead(200, { "Content-Type": "application/json" }).end("{ not json");
    if (reply?.kind === "status") return void response.writeHead(reply.status, { "Content-Type": "application/json" }).end(`{"error":"scripted"}`);
    if (request.method !== "POST" || request.url !== "/search") return void response.writeHead(404).end();
    const items = await library.search({
      q: body.q ?? undefined,
      platforms: body.platforms,
      sinceMs: body.since ? Date.parse(body.since) : undefined,
      nowMs: Date.parse(body.until),
      mediaType: body.media_type,
      contentType: body.content_type ?? undefined,
      limit: body.limit,
    });
    const withUrls = items.map((item) => ({
      ...item,
      thumbnail_url: `https://cdn.example.com/${item.id}.jpg`,
      media_url: `https://cdn.example.com/${item.id}.mp4`,
    }));
    response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ items: withUrls }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    script: (...replies) => queue.push(...replies),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
