/**
 * Pages of the port over X's pages. X's `meta.next_token` is passed through as the
 * port's opaque `nextCursor`, and a cursor given back is sent as `pagination_token`
 * (`next_token` on recent search). Each X endpoint bounds `max_results` (recent search
 * 10-100, a user's posts 5-100, followers 1-1000, ...): a smaller page than X's minimum
 * is cut from an X page of the minimum size, and its cursor remembers where the cut
 * was (`~<size>.<skip>.<token>`; X's tokens are alphanumeric, so `~` never starts one).
 * Such a cut of the first page may shift when posts arrive between two calls, as any
 * offset does; pages with X's own tokens do not.
 */
import { NetworkBadRequestError } from "../../../core/network/network_errors.ts";
import type { Page, PageRequest } from "../../../core/network/network_records.ts";

/** `max_results` bounds of one X endpoint. */
export interface ResultBounds {
  min: number;
  max: number;
}

/** The X request behind one port page. */
export interface PagePlan {
  /** Items the port page may hold. */
  limit: number;
  /** `max_results` to send. */
  maxResults: number;
  /** X's pagination token to send, if any. */
  token: string | undefined;
  /** Items of that X page already returned by an earlier port page. */
  skip: number;
}

/** Plans the X request for `request`: the port's default and maximum, X's bounds. */
export function planPage(request: PageRequest, fallback: number, portMax: number, bounds: ResultBounds): PagePlan {
  const asked = request.limit === undefined || !Number.isFinite(request.limit) ? fallback : Math.floor(request.limit);
  const limit = Math.max(1, Math.min(asked, portMax, bounds.max));
  const cursor = request.cursor ?? "";
  if (!cursor.startsWith("~")) return { limit, maxResults: Math.max(limit, bounds.min), token: cursor || undefined, skip: 0 };
  const match = /^~(\d{1,4})\.(\d{1,4})\.([A-Za-z0-9_-]*)$/.exec(cursor);
  const size = match ? Number(match[1]) : 0;
  if (!match || size < bounds.min || size > bounds.max) throw new NetworkBadRequestError("cursor", "is not a cursor this list issued");
  return { limit, maxResults: size, token: match[3] || undefined, skip: Number(match[2]) };
}

/**
 * The port page cut from one X page: the planned slice of `items`, mapped and
 * filtered by `build` (undefined drops an item: a client-side filter may leave a page
 * short, never wrong), with the cursor of what follows.
 */
export function pageOf<X, T>(plan: PagePlan, items: readonly X[], nextToken: string | undefined, build: (item: X) => T | undefined): Page<T> {
  const end = plan.skip + plan.limit;
  const kept = items.slice(plan.skip, end).flatMap((item) => {
    const built = build(item);
    return built === undefined ? [] : [built];
  });
  const nextCursor = end < items.length ? `~${plan.maxResults}.${end}.${plan.token ?? ""}` : nextToken;
  return nextCursor ? { items: kept, nextCursor } : { items: kept };
}
