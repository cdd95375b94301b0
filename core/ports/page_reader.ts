/**
 * The PageReader port: reads a public web page for product details (supplement:
 * `POST /v1/context/products/{id}/scrape`, "page reads") and, later, ICP expansion from
 * a URL. Two adapters: an HTTP reader over the guarded outbound client (core/outbound),
 * and a simulated one for the reserved example domains so the embedded default works
 * offline.
 */

/** What a page says about itself. */
export interface PageContent {
  /** The final URL after redirects. */
  url: string;
  title: string | null;
  description: string | null;
  /** Headings and list items, in order: a product's feature lines. */
  highlights: string[];
  /** Readable text, trimmed to a bounded length. */
  text: string;
}

/** Reads public pages. */
export interface PageReader {
  read(url: string, options?: { signal?: AbortSignal }): Promise<PageContent>;
}

/** The page could not be read (network failure, timeout, too many redirects, not HTML, an HTTP error). */
export class PageReadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PageReadError";
  }
}
