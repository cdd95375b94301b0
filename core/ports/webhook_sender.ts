/**
 * The WebhookSender port: posting a signed delivery to an endpoint URL a user chose,
 * through the same address guard as every outbound fetch (ARCHITECTURE "One outbound
 * guard": private, loopback, link-local and reserved addresses refused unless the host is
 * in `OUTBOUND_ALLOW_HOSTS`). The adapter is adapters/outbound/guarded_post.ts.
 */

/** What one POST answered. */
export interface WebhookPostResult {
  status: number;
}

/** One POST: headers, the body, a time bound. */
export interface WebhookPost {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Posts deliveries; redirects are never followed (a 3xx is a failed attempt). */
export interface WebhookSender {
  /**
   * Checks a URL before it is stored: scheme, credentials, and every address its host
   * resolves to. Throws `UrlNotAllowedError` (core/outbound/outbound.ts).
   */
  check(url: string): Promise<void>;
  /**
   * Posts; answers the status. Throws `UrlNotAllowedError` when the guard refuses the address
   * connected to, `FetchFailedError` when unreachable or slower than `timeoutMs`.
   */
  post(url: string, post: WebhookPost): Promise<WebhookPostResult>;
}
