/**
 * The doctor's reads (core/ports/x_probe.ts) through the X API client: a watcher
 * (x_api_client.ts, XCallWatcher) keeps X's status and `x-rate-limit-*` headers of each answer
 * (X's developer documentation, x-api/fundamentals/rate-limits.mdx, "Checking your limits":
 * `x-rate-limit-limit`, `x-rate-limit-remaining`, and `x-rate-limit-reset` in Unix seconds).
 */
import type { Clock } from "../../../core/clock.ts";
import type { XProbe, XProbeAnswer, XRateWindow } from "../../../core/ports/x_probe.ts";
import { type XAnswerFacts, type XCallFacts, type XRequest, createXApiClient } from "./x_api_client.ts";

/** Where X is and the app-only token. */
export interface XProbeOptions {
  baseUrl: string;
  bearerToken: string;
  timeoutMs?: number;
  clock: Clock;
  fetch?: typeof fetch;
}

/**
 * The app-only read: `GET /2/usage/tweets` (x-api/usage/introduction.mdx), which answers only
 * the app-only bearer token (openapi.json, `getUsage`: security BearerToken), returns the
 * project's own usage rather than posts or users (none of pricing.mdx's billed resources), and
 * has its own window (rate-limits.mdx, "Usage": 50 per 15 minutes per app).
 */
const APP_READ: XRequest = { path: "/2/usage/tweets", query: { days: 1 }, subject: { resource: "user", ref: "usage" } };

/** Creates the probes. */
export function createXProbe(options: XProbeOptions): XProbe {
  async function probe(request: XRequest): Promise<XProbeAnswer & { body?: unknown }> {
    let seen: { call: XCallFacts; answer: XAnswerFacts | undefined } | undefined;
    const client = createXApiClient({
      baseUrl: options.baseUrl,
      bearerToken: options.bearerToken,
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? 10_000,
      clock: options.clock,
      watchers: [{ after: (call, answer) => void (seen = { call, answer }) }],
    });
    try {
      const body = await client.request<unknown>(request);
      return { status: seen?.answer?.status ?? 200, window: windowOf(seen), body };
    } catch (error) {
      const status = seen?.answer?.status ?? 0;
      return { status, problem: problemOf(seen?.answer?.body) ?? (error as Error).message, window: windowOf(seen) };
    }
  }
  return {
    app: async () => {
      const { body: _body, ...answer } = await probe(APP_READ);
      return answer;
    },
    async me(actor) {
      const { body, ...answer } = await probe({ path: "/2/users/me", actingAs: actor, subject: { resource: "user", ref: "me" } });
      const data = (body as { data?: { id?: unknown; username?: unknown } } | undefined)?.data;
      if (typeof data?.id === "string") return { ...answer, user: { id: data.id, username: String(data.username ?? "") } };
      return answer;
    },
  };
}

/** The window in an answer's headers, when X sent all three. */
function windowOf(seen: { call: XCallFacts; answer: XAnswerFacts | undefined } | undefined): XRateWindow | undefined {
  const headers = seen?.answer?.headers;
  if (!seen || !headers) return undefined;
  const [limit, remaining, reset] = ["x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"].map((name) =>
    Number(headers.get(name) ?? Number.NaN),
  );
  if (![limit, remaining, reset].every(Number.isFinite)) return undefined;
  return { endpoint: seen.call.endpoint, limit, remaining, reset_at: new Date(reset * 1000).toISOString() };
}

/** X's problem title and detail, or an OAuth-style error. */
function problemOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { title, detail } = body as { title?: unknown; detail?: unknown };
  if (typeof detail === "string") return typeof title === "string" && title !== detail ? `${title}: ${detail}` : detail;
  return typeof title === "string" ? title : undefined;
}
