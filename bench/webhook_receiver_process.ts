/**
 * The webhooks section's receiver (bench/webhooks_section.ts), in its own process as a real
 * receiver is: it answers 200 to every post on 127.0.0.1, keeps each event's lag (arrival
 * less the event's `created_at`) the first time it arrives, and talks to the bench over IPC:
 * `{ port }` once listening, `{ seen }` every 100 ms, `{ reset }` once it forgot what it saw
 * when told `"reset"` (after the warm-up), and `{ done, seen, lastArrival, lags }` (wall-clock
 * ms, lags sorted) when asked with `"report"`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const lags: number[] = [];
const seen = new Set<string>();
let lastArrival = 0;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const at = Date.now();
    const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; created_at: string };
    if (!seen.has(event.id)) {
      seen.add(event.id);
      lags.push(at - Date.parse(event.created_at));
      lastArrival = at;
    }
    response.writeHead(200).end();
  });
});

server.listen(0, "127.0.0.1", () => {
  const send = (message: unknown) => process.send?.(message);
  send({ port: (server.address() as AddressInfo).port });
  const progress = setInterval(() => send({ seen: seen.size }), 100);
  process.on("message", (message) => {
    if (message === "reset") {
      lags.length = 0;
      seen.clear();
      lastArrival = 0;
      send({ reset: true });
    }
    if (message !== "report") return;
    clearInterval(progress);
    send({ done: true, seen: seen.size, lastArrival, lags: lags.sort((a, b) => a - b) });
    server.close();
    process.disconnect?.();
  });
});
