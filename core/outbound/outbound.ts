/**
 * The Outbound port: fetching a URL a caller handed us (a product page, an image to
 * upload) from the public internet. Every such fetch goes through one guard (spec
 * Errors: `url_not_allowed` "rejects non-https, private or reserved addresses, embedded
 * credentials"; `fetch_failed` "download failed, timed out or redirected too often").
 * The adapter is adapters/outbound/guarded_get.ts.
 */

/** What a fetch of a public URL answered. */
export interface OutboundResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The `Content-Type` header, lower-cased, without parameters ("" when absent). */
  contentType: string;
  /** The body, at most `maxBytes` long. */
  body: Uint8Array;
}

/** How one fetch is bounded. */
export interface OutboundRequest {
  /** Reading stops past this many bytes and the fetch fails (`FetchFailedError`, `tooLarge`). */
  maxBytes: number;
  /** Cut a longer body at `maxBytes` instead of failing (a page reader reads the first part). */
  truncate?: boolean;
  /** The `Accept` header sent. */
  accept: string;
  /** Cancels the fetch (the adapter adds its own time bound). */
  signal?: AbortSignal;
}

/** Fetches public URLs: GET only, redirects followed and re-checked, time and size bounded. */
export interface Outbound {
  get(url: string, request: OutboundRequest): Promise<OutboundResponse>;
}

/** The URL is not one Threadline may fetch: not https, credentials, or a private or reserved address. */
export class UrlNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UrlNotAllowedError";
  }
}

/** The fetch failed: unreachable, timed out, too many redirects, or a body over the limit (`tooLarge`). */
export class FetchFailedError extends Error {
  readonly tooLarge: boolean;
  constructor(message: string, options: { cause?: unknown; tooLarge?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = "FetchFailedError";
    this.tooLarge = options.tooLarge ?? false;
  }
}
