/**
 * The connect flow's callback (docs/x.md, "Connecting accounts"): `GET /connect/x/callback`, where
 * X sends the user's browser back with `state` and `code`. Outside `/v1` and without a key: the
 * one-time `state` is what ties it to the user who started. A browser gets a short page saying
 * what happened; a client asking for JSON (the CLI's loopback relay, tests) gets
 * `{ data: { account_id, username, relation, created } }` or the API's error envelope.
 */
import type { H3, H3Event } from "h3";
import type { Services } from "../../core/context.ts";
import { type ConnectedAccount, finishConnect } from "../../core/accounts/connect_finish.ts";
import { resumeAccountPublishing } from "../../core/scheduling/publish_pause.ts";
import { type ApiFailure, toApiFailure } from "../../core/api_failure.ts";
import { failureResponse, jsonResponse } from "./responses.ts";
import { escapeHtml } from "../../core/text/escape_html.ts";

/** The callback's path, registered in the X app as `<PUBLIC_URL>/connect/x/callback`. */
export const X_CONNECT_CALLBACK_PATH = "/connect/x/callback";

/** Mounts the callback on `app`. */
export function mountXConnectRoute(app: H3, services: Services): void {
  app.get(X_CONNECT_CALLBACK_PATH, async (event: H3Event) => (await answerConnectCallback(event.req, services, { consoleLink: true })).response);
}

/** What one callback did: the account it connected or the failure, and the answer (a page, or JSON when asked). */
export interface ConnectCallbackOutcome {
  response: Response;
  connected?: ConnectedAccount;
  failure?: ApiFailure;
}

/** Finishes the connection X's redirect (`request`, to the callback) carries; the server's route and the CLI's loopback both answer with it. */
export async function answerConnectCallback(request: Request, services: Services, options: { consoleLink?: boolean } = {}): Promise<ConnectCallbackOutcome> {
  const query = new URL(request.url).searchParams;
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  const headers = new Headers({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  try {
    const connected = await finishConnect(services, {
      state: query.get("state") ?? undefined,
      code: query.get("code") ?? undefined,
      error: query.get("error") ?? undefined,
      error_description: query.get("error_description") ?? undefined,
    });
    // Posts that waited for the account to be connected again publish now (docs/x.md).
    await resumeAccountPublishing(services, connected.account_id);
    if (wantsJson) return { connected, response: jsonResponse(200, { data: connected }, headers) };
    const text = `@${connected.username} is connected to Threadline. You can close this window.`;
    return { connected, response: page(200, "Account connected", text, headers, options.consoleLink) };
  } catch (error) {
    const failure = toApiFailure(error);
    if (wantsJson) return { failure, response: failureResponse(failure, headers) };
    return { failure, response: page(failure.status, "The connection failed", failureMessage(failure), headers, options.consoleLink) };
  }
}

/** The message of a failure's envelope. */
export function failureMessage(failure: ApiFailure): string {
  return String((failure.body as { error?: { message?: string } }).error?.message ?? "The connection failed");
}

/** A minimal page: the callback is opened by a person's browser; on the server it leads back to the web console. */
function page(status: number, title: string, text: string, headers: Headers, consoleLink = false): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", "default-src 'none'");
  const back = consoleLink ? `<p><a href="/console/">Back to the console</a></p>` : "";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${back}</body></html>`;
  return new Response(html, { status, headers });
}
