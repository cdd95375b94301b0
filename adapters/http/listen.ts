/** The standalone Node listener for a fetch handler. */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ApiError } from "../../core/errors.ts";
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
  server.on("clientError", answerUnparsable);
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

/**
 * A request Node could not parse (headers past its 16 KB limit, a malformed request line) is
 * answered in the API's envelope before the connection closes, instead of Node's bare status
 * line (spec: Errors: every answer carries `{ error: { code, message } }`).
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (error as { bytesParsed?: number }).bytesParsed === undefined) return void socket.destroy();
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW"
      ? new ApiError("request_headers_too_large", "The request's headers are larger than 16 KB")
      : new ApiError("invalid_request", "The request could not be parsed as HTTP/1.1");
  const body = JSON.stringify(refusal.toBody());
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
