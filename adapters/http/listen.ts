/** The standalone Node listener for a fetch handler. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "h3/node";
import type { H3 } from "h3";

/** A listening server and its address. */
export interface Listening {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0 picks a free one). */
export async function listen(app: H3, options: { port: number; host: string }): Promise<Listening> {
  const server = createServer(toNodeHandler(app));
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
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}
