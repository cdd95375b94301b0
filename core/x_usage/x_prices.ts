/**
 * X's pay-per-use unit prices in USD (x-api/getting-started/pricing.mdx, "Credit consumption
 * details"): reads are charged per resource returned, writes per request. Overridable by
 * `X_PRICES` (JSON of kind to USD); a legacy Basic or Pro subscriber, who pays monthly, may set
 * every kind to 0.
 */

/** What a metered X call is, for its price. */
export type XPriceKind = "post_create" | "post_create_url" | "dm_create" | "interaction_delete" | "post_read" | "user_read" | "owned_read";

/** Every kind, in report order. */
export const X_PRICE_KINDS: readonly XPriceKind[] = [
  "post_create",
  "post_create_url",
  "dm_create",
  "interaction_delete",
  "post_read",
  "user_read",
  "owned_read",
];

/** USD per unit of each kind: a unit is a request for writes, a resource returned for reads. */
export type XPrices = Record<XPriceKind, number>;

/** The prices on x-api/getting-started/pricing.mdx. */
export const DEFAULT_X_PRICES: XPrices = {
  // "Post: Create $0.015 per request", "Post: Create (with URL) $0.200 per request".
  post_create: 0.015,
  post_create_url: 0.2,
  // "DM Interaction: Create $0.015 per request".
  dm_create: 0.015,
  // "Interaction: Delete $0.010 per request" (deleting a post).
  interaction_delete: 0.01,
  // "Posts: Read $0.005 per resource"; "User: Read" and "Following/Followers: Read" $0.010.
  post_read: 0.005,
  user_read: 0.01,
  // "Owned Reads ... $0.001 per resource".
  owned_read: 0.001,
};

/** Whether a kind is charged per request (writes) rather than per resource returned (reads). */
export function isPerRequest(kind: XPriceKind): boolean {
  return kind === "post_create" || kind === "post_create_url" || kind === "dm_create" || kind === "interaction_delete";
}

/**
 * The prices with `X_PRICES` applied: a JSON object of kind to USD; unnamed kinds keep the
 * page's price. Throws on an unknown kind or a price that is not a number of at least 0.
 */
export function xPricesOf(json: string | undefined): XPrices {
  if (json === undefined || json.trim() === "") return { ...DEFAULT_X_PRICES };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error(`X_PRICES must be a JSON object of kind to USD, got "${json}"`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error(`X_PRICES must be a JSON object of kind to USD, got "${json}"`);
  const prices = { ...DEFAULT_X_PRICES };
  for (const [kind, usd] of Object.entries(raw)) {
    if (!(X_PRICE_KINDS as readonly string[]).includes(kind)) throw new Error(`X_PRICES names an unknown kind "${kind}" (known: ${X_PRICE_KINDS.join(", ")})`);
    if (typeof usd !== "number" || !Number.isFinite(usd) || usd < 0)
      throw new Error(`X_PRICES gives "${kind}" a price that is not a number of at least 0: "${String(usd)}"`);
    prices[kind as XPriceKind] = usd;
  }
  return prices;
}
