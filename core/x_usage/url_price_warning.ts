/**
 * The price warning on a post whose text holds a URL: X prices "Post: Create (with URL)" at
 * $0.200 a request against $0.015 for a plain post (x-api/getting-started/pricing.mdx), about 13
 * times as much (docs/x.md "X's prices and your budget").
 */

// A link in a post's text: `http(s)://...` or a bare `www.host.tld`.
const URL_IN_TEXT = /\bhttps?:\/\/\S|\bwww\.[^\s.]+\.\S/i;

/** Whether a post's text holds a URL (what X prices as a post with a URL). */
export function textHasUrl(text: string): boolean {
  return URL_IN_TEXT.test(text);
}

/** A warning on a post's answer, beyond the spec's record. */
export interface PostWarning {
  code: "x_url_price";
  message: string;
}

/** The warnings for a post's parts: one `x_url_price` naming the parts whose text holds a URL, or none. */
export function urlPriceWarnings(parts: readonly { text: string }[]): PostWarning[] {
  const numbers = parts.flatMap((part, index) => (textHasUrl(part.text) ? [index + 1] : []));
  if (numbers.length === 0) return [];
  const which = numbers.length === 1 ? `Part ${numbers[0]} holds a URL` : `Parts ${numbers.join(", ")} hold URLs`;
  return [{ code: "x_url_price", message: `${which}: X charges about 13 times a plain post's price for a post with a URL` }];
}
