/**
 * The loopback callback of `threadline accounts connect` (like `gh auth login`): a listener on
 * 127.0.0.1 where X sends the operator's browser back after the consent screen. It answers
 * X's redirect with the server's own callback (adapters/http/x_connect_route.ts), so the code is
 * traded and the account stored exactly as `GET /connect/x/callback` would. X matches the
 * redirect URI exactly (X's developer documentation, fundamentals/authentication/oauth-2-0/
 * authorization-code.mdx, "Redirect URI": "exact match validation"), so the port is fixed and
 * `http://127.0.0.1:<port>/connect/x/callback` must be registered in the X app.
 */
import type { Services } from "../../core/context.ts";
import { answerConnectCallback, type ConnectCallbackOutcome, X_CONNECT_CALLBACK_PATH } from "../http/x_connect_route.ts";
import { listen } from "../http/listen.ts";

/** The port `accounts connect` listens on unless `--port` says otherwise (beside `serve`'s 8787). */
export const DEFAULT_CONNECT_PORT = 8788;

/** A listening loopback callback. */
export interface ConnectLoopback {
  /** `http://127.0.0.1:<port>/connect/x/callback`: the redirect URI the connection is started with. */
  callbackUrl: string;
  /** Waits for X's redirect carrying `state` and finishes the connection with `services`; rejects after `timeoutMs`. */
  waitFor(services: Services, state: string, timeoutMs: number): Promise<ConnectCallbackOutcome>;
  /** Stops listening once the browser has its page. */
  close(): Promise<void>;
}

/** How long closing waits for the browser to get its page before cutting the connection. */
const CLOSE_GRACE_MS = 2_000;

/** Listens on `127.0.0.1:port` (0: a free port, for tests: X would refuse an unregistered one). */
export async function openConnectLoopback(port: number): Promise<ConnectLoopback> {
  let waiting: { state: string; services: Services; settle(outcome: ConnectCallbackOutcome): void } | undefined;
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname !== X_CONNECT_CALLBACK_PATH) return text(404, "Not found");
    // A stale tab or another command's redirect does not end this wait: only our `state` does.
    if (!waiting || url.searchParams.get("state") !== waiting.state)
      return text(400, "This is not the connection `threadline accounts connect` is waiting for");
    const current = waiting;
    waiting = undefined;
    const outcome = await answerConnectCallback(request, current.services);
    current.settle(outcome);
    return outcome.response;
  };
  let listening: Awaited<ReturnType<typeof listen>>;
  try {
    listening = await listen(handle, { port, host: "127.0.0.1" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new Error(`Port "${port}" on 127.0.0.1 is in use; pass another with --port (and register its callback URL in the X app)`);
    throw error;
  }
  return {
    callbackUrl: `${listening.url}${X_CONNECT_CALLBACK_PATH}`,
    waitFor(services, state, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`X did not send the browser back within ${timeoutMs / 1000} s; run the command again (--timeout gives more time)`));
        }, timeoutMs);
        waiting = {
          state,
          services,
          settle(outcome) {
            clearTimeout(timer);
            resolve(outcome);
          },
        };
      });
    },
    async close() {
      const cut = setTimeout(() => listening.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await listening.close();
      } finally {
        clearTimeout(cut);
      }
    },
  };
}
