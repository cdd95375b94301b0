/**
 * Text as its author wrote it, from X's rendering: X API v2 escapes `&`, `<` and `>`
 * as HTML entities, rewrites every link to `t.co` (the original is in
 * `entities.urls[].expanded_url`), and appends a `t.co` link for attached media. The
 * port's texts are what was typed, so `findPublished` can compare them with what
 * Threadline sent.
 */
import type { XUrlEntity } from "./x_api_types.ts";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/** Unescapes X's HTML entities, then puts the original links back and drops media links. */
export function plainText(text: string, urls: readonly XUrlEntity[] = []): string {
  let plain = text.replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity]);
  let droppedMedia = false;
  for (const link of urls) {
    if (!link.url || !plain.includes(link.url)) continue;
    if (link.media_key) {
      plain = plain.replace(link.url, "");
      droppedMedia = true;
    } else if (link.expanded_url && link.expanded_url !== link.url) {
      plain = plain.replace(link.url, link.expanded_url);
    }
  }
  // The media link sits after a space at the end of the text.
  return droppedMedia ? plain.trimEnd() : plain;
}

/** A time as the port writes it: ISO-8601 UTC with milliseconds. */
export function isoTime(value: string | undefined, fallbackMs: number): string {
  const ms = value === undefined ? Number.NaN : Date.parse(value);
  return new Date(Number.isNaN(ms) ? fallbackMs : ms).toISOString();
}
