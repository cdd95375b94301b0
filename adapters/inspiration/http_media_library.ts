/**
 * The MediaLibrary port over HTTP: a hosted library at `INSPIRATION_MEDIA_URL`, with
 * `INSPIRATION_MEDIA_KEY` as a bearer token. The protocol (docs/areas.md, "Inspiration media"):
 *
 *   POST {INSPIRATION_MEDIA_URL}/search
 *   { "q": string | null, "platforms": ["x", ...], "since": ISO-8601 | null,
 *     "until": ISO-8601, "media_type": "all" | "video" | "image",
 *     "content_type": string | null, "limit": 1..120 }
 *   200 { "items": [ { id, platform, media_type, content_type, caption, summary,
 *         engagement: { views, likes, comments, shares }, author: { handle, name },
 *         posted_at, source_url, score? } ] }
 *
 * `q: null` browses newest first. Every item is checked against the item schema and only
 * its fields are kept, so a media file or thumbnail URL the source adds never reaches a
 * client; a malformed answer is a failure, not a partial result. Bounded by a timeout.
 */
import { z } from "zod";
import { MediaLibraryError, type MediaLibrary } from "../../core/ports/media_library.ts";
import { mediaItem } from "../../core/ports/media_item_schema.ts";

/** Where the hosted library is. */
export interface HttpMediaLibraryOptions {
  baseUrl: string;
  apiKey?: string;
  /** Bound on one call in ms (default 10 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const answer = z.object({ items: z.array(mediaItem).max(1_000) });

/** Creates the client. */
export function createHttpMediaLibrary(options: HttpMediaLibraryOptions): MediaLibrary {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/search`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const send = options.fetch ?? fetch;
  const origin = new URL(url).origin;
  return {
    async search(query) {
      const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
      if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
      const body = {
        q: query.q ?? null,
        platforms: query.platforms,
        since: query.sinceMs === undefined ? null : new Date(query.sinceMs).toISOString(),
        until: new Date(query.nowMs).toISOString(),
        media_type: query.mediaType,
        content_type: query.contentType ?? null,
        limit: query.limit,
      };
      const deadline = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await send(url, { method: "POST", headers, body: JSON.stringify(body), signal: deadline });
        text = await response.text();
      } catch (cause) {
        if (deadline.aborted) throw new MediaLibraryError("timeout", `The inspiration media library did not answer within ${timeoutMs} ms`, { cause });
        throw new MediaLibraryError("unavailable", `Cannot reach the inspiration media library at "${origin}"`, { cause });
      }
      if (response.status === 401 || response.status === 403) {
        throw new MediaLibraryError(
          "unavailable",
          `The inspiration media library refused the credentials (HTTP ${response.status}); check "INSPIRATION_MEDIA_KEY"`,
        );
      }
      if (response.status === 429 || response.status === 503) {
        throw new MediaLibraryError("unavailable", `The inspiration media library is unavailable (HTTP ${response.status})`);
      }
      if (!response.ok) throw new MediaLibraryError("failed", `The inspiration media library failed (HTTP ${response.status})`);
      let parsed: z.infer<typeof answer>;
      try {
        parsed = answer.parse(JSON.parse(text));
      } catch (cause) {
        throw new MediaLibraryError("failed", "The inspiration media library answered an unexpected body", { cause });
      }
      return parsed.items.filter((item) => query.platforms.includes(item.platform)).slice(0, query.limit);
    },
  };
}
