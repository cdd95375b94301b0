/**
 * Cursors and page assembly. Time-ordered lists page by keyset (the time and id of the
 * last item returned), so posts arriving while a client pages never shift or repeat
 * items; fixed lists (followers, members) page by offset. Cursors are opaque base64url.
 */
import { NetworkBadRequestError } from "../../../core/network/network_errors.ts";
import type { Page } from "../../../core/network/network_records.ts";

/** A position in a newest-first list. */
export interface TimeKey {
  ms: number;
  id: string;
}

/** Clamps a requested page size. */
export function pageSize(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(limit)));
}

/** The cursor after `key`. */
export function timeCursor(key: TimeKey): string {
  return Buffer.from(`t:${key.ms}:${key.id}`).toString("base64url");
}

/** The position a time cursor names (undefined: from the top). */
export function readTimeCursor(cursor: string | undefined): TimeKey | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const match = /^t:(\d{1,15}):(\d{1,20})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new NetworkBadRequestError("cursor", "is not a cursor this list issued");
  return { ms: Number(match[1]), id: match[2] };
}

/**
 * The cursor for an offset. Zero-padded so the token is at least 16 characters long, as X's
 * tokens are (openapi.json gives `pagination_token` of `GET /2/users/:id/followers` minLength 16),
 * and the fake X server can hand the world's cursors out as X's tokens.
 */
export function offsetCursor(offset: number): string {
  return Buffer.from(`o:${String(offset).padStart(12, "0")}`).toString("base64url");
}

/** The offset an offset cursor names (0 without one). */
export function readOffsetCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const match = /^o:(\d{1,12})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new NetworkBadRequestError("cursor", "is not a cursor this list issued");
  return Number(match[1]);
}

/** Whether `item` comes after the cursor position in a newest-first list. */
export function isAfter(item: TimeKey, cursor: TimeKey | undefined): boolean {
  if (!cursor) return true;
  return item.ms < cursor.ms || (item.ms === cursor.ms && compareText(item.id, cursor.id) < 0);
}

/** Orders newest first, ties by id descending (numeric order for numeric ids). */
export function newestFirst(a: TimeKey, b: TimeKey): number {
  return b.ms - a.ms || compareText(b.id, a.id);
}

/** A keyset page from candidates already past the cursor: sorted, de-duplicated, `limit` kept, cursor set when more remain. */
export function keysetPage<T extends TimeKey, R>(candidates: T[], limit: number, build: (item: T) => R): Page<R> {
  const seen = new Set<string>();
  const sorted = candidates.sort(newestFirst).filter((item) => !seen.has(item.id) && seen.add(item.id));
  const kept = sorted.slice(0, limit);
  const page: Page<R> = { items: kept.map(build) };
  if (sorted.length > limit) page.nextCursor = timeCursor(kept[kept.length - 1]);
  return page;
}

function compareText(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
