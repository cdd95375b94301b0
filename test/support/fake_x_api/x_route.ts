/** What a route of the fake X server receives, and the query parameters X validates. */
import type { Clock } from "../../../core/clock.ts";
import type { SimulatedNetwork } from "../../../adapters/x/simulated/simulated_network.ts";
import type { FakeXMedia } from "./x_media_routes.ts";
import { FakeParameterError, type XAnswer } from "./x_problems.ts";

/** One request as a route sees it. */
export interface RouteContext {
  network: SimulatedNetwork;
  clock: Clock;
  url: URL;
  /** The path's captures. */
  params: string[];
  body: any;
  /** The account a user-context token acts as; undefined under the app-only token. */
  userId: string | undefined;
  /** Article drafts made through `POST /2/articles/draft` (id -> draft). */
  drafts: Map<string, { authorId: string; title: string; markdown: string }>;
  /** Uploaded media (x_media_routes.ts): `POST /2/tweets` attaches only ids it holds, finished and unexpired. */
  media: FakeXMedia;
}

/** One endpoint. */
export interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  /** Writes and DMs need a user-context token (X: 403 "Unsupported Authentication" otherwise). */
  userContext?: boolean;
  /** The parameter that carries the pagination token (`next_token` on recent search). */
  tokenParam?: string;
  handle(ctx: RouteContext): Promise<XAnswer>;
}

/** `max_results` within X's bounds for the endpoint (400 outside them, as X answers). */
export function maxResults(url: URL, min: number, max: number, fallback: number): number {
  const raw = url.searchParams.get("max_results");
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new FakeParameterError("max_results", raw, `The \`max_results\` query parameter value [${raw}] is not between ${min} and ${max}`);
  }
  return value;
}

/** An ISO time parameter (X: `YYYY-MM-DDTHH:mm:ssZ`), checked against `earliest` and `latest` when given. */
export function timeParam(url: URL, name: string, bounds: { earliest?: number; latest?: number } = {}): string | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?Z$/.test(raw) || Number.isNaN(ms)) throw new FakeParameterError(name, raw, `Invalid '${name}':'${raw}'`);
  if (bounds.earliest !== undefined && ms < bounds.earliest) {
    throw new FakeParameterError(name, raw, `Invalid '${name}':'${raw}'. '${name}' must be on or after ${new Date(bounds.earliest).toISOString()}`);
  }
  if (bounds.latest !== undefined && ms > bounds.latest) {
    throw new FakeParameterError(name, raw, `Invalid '${name}':'${raw}'. '${name}' must be a minimum of 10 seconds prior to the request time.`);
  }
  return new Date(ms).toISOString();
}

/** The comma-separated ids or usernames of a batch lookup (X: 1 to 100). */
export function batchParam(url: URL, name: string): string[] {
  const values = (url.searchParams.get(name) ?? "").split(",").filter(Boolean);
  if (values.length === 0 || values.length > 100)
    throw new FakeParameterError(name, url.searchParams.get(name) ?? "", `The \`${name}\` query parameter must hold 1 to 100 values`);
  return values;
}

/** An answer of 200 with `body`. */
export function ok(body: unknown, status = 200): XAnswer {
  return { status, body };
}
