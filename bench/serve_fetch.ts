/** A node:http server on 127.0.0.1 (port 0) for a fetch handler, through h3's Node adapter. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";

/** A listening server. */
export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves `fetch` the way mod.ts's example mounts Threadline. */
export async function serveFetch(fetch: (request: Request) => Promise<Response> | Response): Promise<Served> {
  // h3's declaration asks for an H3 app, but the adapter only reads `app.fetch`
  // (h3 dist/_entries/node.mjs: `toNodeHandler$1(app.fetch)`), as mod.ts documents.
  const server = createServer(toNodeHandler({ fetch } as unknown as H3));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
