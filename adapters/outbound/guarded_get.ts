/**
 * The Outbound adapter: GET over node:http(s) with the address policy applied where it
 * cannot be dodged. A host name is resolved by our own `lookup`, which refuses the
 * connection when any address it resolves to is blocked, so the address checked is the
 * address connected to (no DNS-rebinding window between a check and a connect); an IP
 * literal is checked before connecting. Redirects are followed by hand (at most 3), each
 * hop checked again; one time bound covers the whole fetch; reading stops at the limit.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import { FetchFailedError, type Outbound, type OutboundRequest, UrlNotAllowedError } from "../../core/outbound/outbound.ts";
import { allowedHosts, checkUrl, isBlockedAddress, NOT_PUBLIC } from "./address_policy.ts";

/** Redirects followed before `fetch_failed` (issue: "too many redirects (say 3)"). */
export const MAX_REDIRECTS = 3;

/** Default bound on one fetch, redirects and body included. */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;

/** How the operator configured outbound fetches. */
export interface OutboundSettings {
  /** `OUTBOUND_ALLOW_HOSTS`: hosts (`host` or `host:port`) exempt from the address check, which may also use http. */
  allowHosts?: Iterable<string> | string;
  /** Extra trusted CA certificates, PEM (`OUTBOUND_CA_FILE`), added to Node's roots. */
  ca?: string;
  /** Bound on one fetch in ms (`OUTBOUND_TIMEOUT_MS`, default 10 000). */
  timeoutMs?: number;
}

const USER_AGENT = "ThreadlineBot/1.0 (+https://github.com/threadline)";

/** The guarded outbound client. */
export function createGuardedOutbound(settings: OutboundSettings = {}): Outbound {
  const allowed = allowedHosts(settings.allowHosts);
  const ca = settings.ca ? [...rootCertificates, settings.ca] : undefined;
  const timeoutMs = settings.timeoutMs || DEFAULT_OUTBOUND_TIMEOUT_MS;
  return {
    async get(address, request) {
      let url = parseUrl(address);
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(request.signal ? [request.signal] : [])]);
      for (let hop = 0; ; hop++) {
        const { operatorAllowed } = checkUrl(url, allowed);
        const response = await send(url, { operatorAllowed, ca, accept: request.accept, signal }).catch((error: unknown) => {
          throw failure(error, url, signal, timeoutMs);
        });
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.destroy();
          if (hop >= MAX_REDIRECTS) throw new FetchFailedError(`"${address}" redirected more than ${MAX_REDIRECTS} times`);
          url = parseUrl(location, url);
          continue;
        }
        const body = await readBody(response, request, url).catch((error: unknown) => {
          throw failure(error, url, signal, timeoutMs);
        });
        const contentType = (response.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
        return { url: url.href, status, contentType, body };
      }
    },
  };
}

function parseUrl(address: string, base?: URL): URL {
  try {
    return new URL(address, base);
  } catch {
    throw new UrlNotAllowedError(`"${address.slice(0, 200)}" is not a URL`);
  }
}

/**
 * Resolves like `dns.lookup` and refuses when any address is blocked (also used by guarded_post.ts): a name with one
 * public and one private address is refused, whichever the connection would have used.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find(({ address }) => isBlockedAddress(address));
    if (refused) {
      const reason = new UrlNotAllowedError(NOT_PUBLIC(hostname));
      return callback(reason as NodeJS.ErrnoException, "", 0);
    }
    if (addresses.length === 0) return callback(Object.assign(new Error(`"${hostname}" has no address`), { code: "ENOTFOUND" }), "", 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

function send(url: URL, options: { operatorAllowed: boolean; ca?: string[]; accept: string; signal: AbortSignal }): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        method: "GET",
        agent: false,
        headers: { Accept: options.accept, "User-Agent": USER_AGENT, "Accept-Encoding": "identity" },
        lookup: options.operatorAllowed ? undefined : guardedLookup,
        ca: options.ca,
        signal: options.signal,
      },
      resolve,
    );
    request.once("error", reject);
    request.end();
  });
}

/** The body, never more than `maxBytes`: past it the connection is dropped (or the body cut, with `truncate`). */
async function readBody(response: IncomingMessage, request: OutboundRequest, url: URL): Promise<Uint8Array> {
  const tooLarge = () => new FetchFailedError(`"${url.href}" is larger than ${request.maxBytes} bytes`, { tooLarge: true });
  const declared = Number(response.headers["content-length"]);
  if (!request.truncate && Number.isFinite(declared) && declared > request.maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    if (size + chunk.length > request.maxBytes) {
      response.destroy();
      if (!request.truncate) throw tooLarge();
      chunks.push(chunk.subarray(0, request.maxBytes - size));
      size = request.maxBytes;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

function failure(error: unknown, url: URL, signal: AbortSignal, timeoutMs: number): Error {
  if (error instanceof UrlNotAllowedError || error instanceof FetchFailedError) return error;
  if (signal.aborted) {
    const timedOut = signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
    return new FetchFailedError(timedOut ? `Fetching "${url.href}" took longer than ${timeoutMs} ms` : `Fetching "${url.href}" was cancelled`, {
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException).code;
  return new FetchFailedError(`Cannot fetch "${url.href}"${code ? ` (${code})` : ""}`, { cause: error });
}
