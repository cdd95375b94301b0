/**
 * Meters X's pay-per-use spending (x-api/getting-started/pricing.mdx) and holds back calls that
 * would cross a user's monthly X budget (docs/x.md "X's prices and your budget"). An
 * XCallWatcher of its own, independent of any other watcher.
 */
import type { Clock } from "../../../core/clock.ts";
import type { Sql } from "../../../core/db/sql.ts";
import { textHasUrl } from "../../../core/x_usage/url_price_warning.ts";
import { XBudgetSpentError } from "../../../core/x_usage/x_budget_error.ts";
import type { XPriceKind, XPrices } from "../../../core/x_usage/x_prices.ts";
import { addXUsage, budgetOfAccount, monthSpendOfUser } from "../../../core/x_usage/x_usage_queries.ts";
import type { XAnswerFacts, XCallFacts, XCallWatcher } from "./x_api_client.ts";

/** The account app-only reads count under: they act as no account. */
export const APP_USAGE_ACCOUNT = "app";

/** What metering needs. */
export interface XUsageWatcherOptions {
  sql: Sql;
  clock: Clock;
  prices: XPrices;
  /** The monthly budget in USD of a user without one of their own (`X_MONTHLY_BUDGET_USD`); absent: no budget. */
  defaultBudgetUsd?: number;
}

// Owned Reads: "when `{id}` matches the authenticated user" (pricing.mdx, "Owned Reads").
const OWNED_READ =
  /^GET \/2\/users\/:id\/(tweets|mentions|liked_tweets|bookmarks|followers|following|blocking|muting|owned_lists|followed_lists|list_memberships|pinned_lists)$/;
const USER_READ = /^GET \/2\/(users(\/|$)|lists\/:id\/members$|tweets\/:id\/(liking_users|retweeted_by)$)/;
const POST_READ = /^GET \/2\/(tweets(\/|$)|users\/:id\/(tweets|mentions|liked_tweets|timelines)|lists\/:id\/tweets$)/;

/**
 * The price kind of a call, or undefined when it is not metered (media uploads, likes, lists, DM
 * reads: not among the kinds in core/x_usage/x_prices.ts).
 */
export function kindOfCall(call: XCallFacts): XPriceKind | undefined {
  const endpoint = call.endpoint;
  if (endpoint === "POST /2/tweets") return hasUrl(call.body) ? "post_create_url" : "post_create";
  if (call.method === "POST" && endpoint.startsWith("POST /2/dm_conversations")) return "dm_create";
  if (endpoint === "DELETE /2/tweets/:id") return "interaction_delete";
  if (call.method !== "GET") return undefined;
  if (OWNED_READ.test(endpoint) && call.userId !== undefined && call.path.split("/")[3] === call.userId) return "owned_read";
  if (POST_READ.test(endpoint)) return "post_read";
  if (USER_READ.test(endpoint)) return "user_read";
  return undefined;
}

/** Whether a post body's text holds a URL. */
export function hasUrl(body: unknown): boolean {
  const text = typeof body === "object" && body !== null ? (body as { text?: unknown }).text : undefined;
  return typeof text === "string" && textHasUrl(text);
}

/** Units a call is charged for: one request for a write; for a read, the resources returned (`data`). */
function unitsOf(kind: XPriceKind, answer: XAnswerFacts): number {
  if (kind === "post_create" || kind === "post_create_url" || kind === "dm_create" || kind === "interaction_delete") return 1;
  const data = typeof answer.body === "object" && answer.body !== null ? (answer.body as { data?: unknown }).data : undefined;
  if (Array.isArray(data)) return data.length;
  return data === undefined || data === null ? 0 : 1;
}

/**
 * The account a call counts under: the account it acts as, else `app`. Asking X who a
 * configured `X_USER_TOKEN` is (`GET /2/users/me`, adapters/x/x_api/x_user_tokens.ts) acts as
 * no account yet, so it counts under `app` too.
 */
function accountOf(call: XCallFacts): string {
  return call.userId === undefined || call.userId === "me" ? APP_USAGE_ACCOUNT : call.userId;
}

/** The UTC month of an instant, `2026-11`. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** Creates the watcher: `before` refuses a user-context call whose price would cross its user's budget; `after` counts a successful call. */
export function createXUsageWatcher(options: XUsageWatcherOptions): XCallWatcher {
  const { sql, clock, prices } = options;
  return {
    async before(call) {
      const kind = kindOfCall(call);
      if (!kind || accountOf(call) === APP_USAGE_ACCOUNT) return;
      const owner = await budgetOfAccount(sql, accountOf(call));
      const budget = owner?.budgetUsd ?? options.defaultBudgetUsd;
      if (!owner || budget === undefined) return;
      // A read's price is known only once it answers: one resource is its least.
      const spent = await monthSpendOfUser(sql, owner.userId, monthOf(clock.now()));
      if (spent + prices[kind] > budget + 1e-9) throw new XBudgetSpentError(budget);
    },
    async after(call, answer) {
      if (!answer || answer.status < 200 || answer.status >= 300) return;
      const kind = kindOfCall(call);
      if (!kind) return;
      const units = unitsOf(kind, answer);
      await addXUsage(sql, {
        accountId: accountOf(call),
        month: monthOf(clock.now()),
        kind,
        units,
        spendUsd: units * prices[kind],
      });
    },
  };
}
