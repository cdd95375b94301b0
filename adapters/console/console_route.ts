/**
 * `GET /console/**`: the web console's static files (ARCHITECTURE: the console is a client of the
 * typed tRPC router served by the same process). Public like any static page: it holds no data;
 * everything it shows comes from `/trpc` with the key the user pastes. Paths the build does not
 * hold answer the app's page (client-side routes such as `/console/calendar`).
 */
import type { H3 } from "h3";
import { consoleDirectory, type ConsoleAsset, loadConsoleAssets } from "./console_assets.ts";

/**
 * The page may load only its own scripts and styles, talk only to this origin, and never be
 * framed. Inline styles stay allowed: the calendar component writes its own style element. Uploads
 * may go to any https origin: with S3 the signed upload URL is the bucket's.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self' https:; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Mounts the console under `/console`. */
export function mountConsoleRoute(app: H3): void {
  let loading: Promise<Map<string, ConsoleAsset> | undefined> | undefined;
  const assets = () => {
    loading ??= (async () => {
      const dir = consoleDirectory();
      return dir ? loadConsoleAssets(dir) : undefined;
    })();
    return loading;
  };
  app.get("/console/**", async (event) => {
    // Relative asset URLs resolve under `/console/` only.
    if (event.url.pathname === "/console") return new Response(null, { status: 308, headers: { Location: "/console/" } });
    const files = await assets();
    if (!files) {
      // Cleared so a build made meanwhile (`npm run build:console`) is found on the next request.
      loading = undefined;
      return new Response("The console is not built: run `npm run build:console`.\n", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    const name = event.url.pathname.slice("/console/".length);
    const asset = files.get(name) ?? (name.startsWith("assets/") ? undefined : files.get("index.html"));
    if (!asset) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    const headers = new Headers({
      "Content-Type": asset.contentType,
      "Cache-Control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "Content-Security-Policy": CONTENT_SECURITY_POLICY,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      Vary: "Accept-Encoding",
    });
    const gzip = asset.gzipped && /\bgzip\b/.test(event.req.headers.get("accept-encoding") ?? "");
    if (gzip) headers.set("Content-Encoding", "gzip");
    const body = (gzip ? asset.gzipped! : asset.body) as Uint8Array<ArrayBuffer>;
    return new Response(event.req.method === "HEAD" ? null : body, { headers });
  });
}
