/** The standalone Node listener for a fetch handler. */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "srvx/node";
import type { H3 } from "h3";

/** A listening server and its address. */
export interface Listening {
  server: Server;
  url: string;
  /** Stops accepting connections and resolves once the requests in flight are answered. */
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0 picks a free one) with `app` (an h3 app or a fetch handler). */
export async function listen(app: H3 | ((request: Request) => Promise<Response>), options: { port: number; host: string }): Promise<Listening> {
  const fetch = typeof app === "function" ? app : app.fetch;
  const server = createServer(toNodeHandler(fetch) as RequestListener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
