/**
 * The port's search query as an X recent-search query. The port's language (words that
 * must all appear, `"exact phrases"`, `-excluded` words, `OR` between alternatives,
 * AND binding tighter than OR) is X's own, so the text passes as typed; the options
 * become operators: `lang:xx`, and for originals only
 * `-is:retweet -is:reply -is:quote` (thread continuations are replies on X, so they go
 * too, as the port asks). An OR-query is grouped so the operators bind to all of it.
 * X recent search has no operator for a minimum of likes (`min_faves:` is the web
 * search's, not API v2's): that filter is applied to what X answers (search_reads).
 */
import type { SearchOptions } from "../../../core/network/social_network.ts";

/** The `query` parameter for `options`, or undefined when nothing can match. */
export function recentSearchQuery(options: SearchOptions): string | undefined {
  const text = options.query.trim();
  // Only excluded words (or nothing): X refuses such a query, and nothing can match it anyway.
  const positive = text.replace(/(^|\s)-(?:"[^"]*"|\S+)/g, " ").replace(/(^|\s)OR(?=\s|$)/g, " ");
  if (!/[\p{L}\p{N}]/u.test(positive)) return undefined;
  const operators: string[] = [];
  if (options.lang !== undefined) {
    // A language code is letters (BCP 47's primary tag); anything else matches no post.
    if (!/^[A-Za-z]{2,3}$/.test(options.lang)) return undefined;
    operators.push(`lang:${options.lang.toLowerCase()}`);
  }
  if (options.originalsOnly) operators.push("-is:retweet", "-is:reply", "-is:quote");
  if (operators.length === 0) return text;
  const grouped = /\sOR\s/.test(text) ? `(${text})` : text;
  return `${grouped} ${operators.join(" ")}`;
}
