/**
 * URLs of media as a caller sees them. A local store's upload route and object URLs live
 * on this server, so they need the server's address: `PUBLIC_URL` when configured (set it
 * behind a proxy), else the `Host` the request came to.
 */
import type { Context } from "../context.ts";

/** A `Host` header value that is safe to put in a URL (name or address, optional port). */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** This server's `/v1` base as the caller reached it. */
export function requestBaseUrl(ctx: Context): string {
  if (ctx.services.settings.baseUrl) return ctx.services.settings.baseUrl;
  const host = ctx.transport.headers.get("host");
  // A request with no Host (an in-process `fetch`) gets the loopback name.
  return `http://${host && HOST.test(host) ? host : "localhost"}/v1`;
}

/** The URL that shows `objectKey` to this caller, or null when no media store is configured. */
export function mediaUrl(ctx: Context, objectKey: string): string | null {
  return ctx.services.media?.objectUrl(objectKey, requestBaseUrl(ctx)) ?? null;
}
