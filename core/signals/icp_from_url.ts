/**
 * `POST /v1/signals/icp/expand-from-url` (supplement Signals: "returns rubric, an
 * `icp_description`, and keyword ideas; uses one of 20 page reads/day"; docs/areas.md "Signals":
 * at most 10 calls in 10 minutes, else `429 rate_limited`). The page is read through the
 * guarded page reader like a product scrape, with the same answers (read_counted_page.ts).
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type RollingWindowLimit, takeRollingWindow } from "../limits/rolling_window_limit.ts";
import type { PageContent } from "../ports/page_reader.ts";
import { readCountedPage } from "../pages/read_counted_page.ts";
import { expandIcp, suggestKeywords } from "./icp_helpers.ts";
import { hasSearchableWord } from "./icp_phrases.ts";
import type { IcpPageExpansion } from "./icp_schema.ts";

/**
 * Calls per account owner in any 10 minutes. Counted as a rolling allowance (exactly "in
 * 10 minutes", not per clock window), for the key owner's main account like the page
 * reads it guards, and before them: a refused call spends no page read.
 */
export const URL_EXPANSIONS: RollingWindowLimit = { name: "icp_url_expansions", limit: 10, windowSeconds: 600, what: "ICP expansions from a URL" };

/** The longest ICP description (supplement: agents' `icp_description` max 500). */
const ICP_MAX_CHARS = 500;

/** Reads `url` and answers an ICP drawn from the page, its rubric and keyword ideas. */
export async function expandIcpFromUrl(ctx: KeyContext, url: string): Promise<{ data: IcpPageExpansion }> {
  await takeRollingWindow(ctx, URL_EXPANSIONS);
  // A fragment is never sent to the server: one page is one page, like a product's URL.
  const address = new URL(url);
  address.hash = "";
  const page = await readCountedPage(ctx, address.href, "page");
  const icp = icpOfPage(page);
  if (!icp) throw new ApiError("scrape_failed", "The page has no title, description or text to draw an ICP from");
  const [rubric, keywords] = await Promise.all([expandIcp(ctx.services, icp), suggestKeywords(ctx.services, icp)]);
  return { data: { url: page.url, page_title: page.title, icp_description: icp, rubric, keywords } };
}

/**
 * The page as an ICP: "People interested in" its title, then its description and up to
 * three headings that are not the title, cut at a word to 500 characters. Only the page's
 * own words; when it has none of these, its readable text. Null when nothing searchable.
 */
export function icpOfPage(page: PageContent): string | null {
  const tidy = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
  const title = tidy(page.title);
  const description = tidy(page.description);
  const headings = page.highlights
    .map(tidy)
    .filter((heading) => heading && heading.toLowerCase() !== title.toLowerCase())
    .slice(0, 3);
  const parts = [title && `People interested in ${title}`, description, headings.length ? `Topics: ${headings.join("; ")}` : ""].filter(Boolean);
  const text = parts.length ? parts.map((part) => part.replace(/[.:;\s]+$/, "")).join(". ") : tidy(page.text);
  const icp = cut(text, ICP_MAX_CHARS);
  return icp.length >= 3 && hasSearchableWord(icp) ? icp : null;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const space = head.lastIndexOf(" ");
  return (space > max / 2 ? head.slice(0, space) : text.slice(0, max)).trim();
}
