/**
 * `GET /v1/docs`, the only public route (spec rule 1). OpenAPI JSON for
 * `Accept: application/json` or `?format=openapi`, HTML for browsers, and otherwise
 * the Markdown quick reference, which the real service's CLI prints as text
 * (supplement 1.4: it sends no headers at all).
 */
import type { H3Event } from "h3";
import type { DocsBundle } from "../../core/context.ts";

/** Answers the docs in the negotiated format. */
export function docsResponse(event: H3Event, docs: DocsBundle): Response {
  const format = event.url.searchParams.get("format");
  const accept = event.req.headers.get("accept") ?? "";
  const headers = { "Cache-Control": "public, max-age=300", Vary: "Accept" };
  if (format === "openapi" || format === "json" || (!format && /application\/(json|vnd\.oai\.openapi)/.test(accept))) {
    return new Response(JSON.stringify(docs.openapi), { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
  }
  if (format === "html" || (!format && accept.includes("text/html"))) {
    return new Response(docs.html, { headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
  }
  return new Response(docs.markdown, { headers: { ...headers, "Content-Type": "text/markdown; charset=utf-8" } });
}
