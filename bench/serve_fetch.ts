/** A node:http server on 127.0.0.1 (port 0) for a fetch handler, through h3's Node adapter. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { waitFor } from "./processes.ts";

/** A listening server. */
export interface Served {
  url: string;
  /** Stops listening, drops connections and waits (up to 5 s) for handlers still running. */
  close(): Promise<void>;
}

/** Serves `fetch` the way mod.ts's example mounts Threadline. */
export async function serveFetch(fetch: (request: Request) => Promise<Response> | Response): Promise<Served> {
  // Handlers keep running after their connection is dropped; counting them lets close()
  // wait, so the pool is not ended under a query (which would log a 500 per request).
  let inFlight = 0;
  const counted = async (request: Request) => {
    inFlight++;
    try {
      return await fetch(request);
    } finally {
      inFlight--;
    }
  };
  // h3's declaration asks for an H3 app, but the adapter only reads `app.fetch`
  // (h3 dist/_entries/node.mjs: `toNodeHandler$1(app.fetch)`), as mod.ts documents.
  const server = createServer(toNodeHandler({ fetch: counted } as unknown as H3));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await waitFor("in-flight requests to finish", () => inFlight === 0, 5_000, 10);
    },
  };
}
