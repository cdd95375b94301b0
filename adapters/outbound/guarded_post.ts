/**
 * The WebhookSender adapter (core/ports/webhook_sender.ts): POST over node:http(s) with
 * the outbound address policy where it cannot be dodged: the same guarded `lookup` as the
 * GET client (guarded_get.ts), so the address checked is the address connected to, checked
 * again on every delivery (a name that later resolves to a private address is refused).
 * Redirects are not followed. The answer's body is read up to a small bound and dropped.
 * Connections are kept alive and reused per origin (a busy endpoint's posts do not each pay a
 * TCP and TLS handshake); a reused connection goes to the address checked when it was opened.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { FetchFailedError, UrlNotAllowedError } from "../../core/outbound/outbound.ts";
import type { WebhookPost, WebhookSender } from "../../core/ports/webhook_sender.ts";
import { allowedHosts, checkUrl, isBlockedAddress } from "./address_policy.ts";
import { guardedLookup, type OutboundSettings } from "./guarded_get.ts";

/** Bytes of a receiver's answer read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = "Threadline-Webhooks/1.0";

/** Connections kept per origin: a delivery run posts at most 50 at once. */
const SOCKETS_PER_ORIGIN = 50;
/** An idle kept connection is closed after this long (under the usual 5 s of servers, so a reuse does not race their close). */
const IDLE_SOCKET_MS = 4_000;

/** The guarded webhook client. */
export function createGuardedWebhookSender(settings: OutboundSettings = {}): WebhookSender {
  const allowed = allowedHosts(settings.allowHosts);
  const ca = settings.ca ? [...rootCertificates, settings.ca] : undefined;
  const pool = { maxSockets: SOCKETS_PER_ORIGIN, maxFreeSockets: SOCKETS_PER_ORIGIN, timeout: IDLE_SOCKET_MS, keepAlive: true, scheduling: "lifo" as const };
  const agents = { http: new HttpAgent(pool), https: new HttpsAgent({ ...pool, ca }) };
  return {
    async check(address) {
      const url = parseUrl(address);
      const { operatorAllowed } = checkUrl(url, allowed);
      const host = url.hostname.replace(/^\[|\]$/g, "");
      if (operatorAllowed || isIP(host)) return;
      const addresses = await dnsLookup(host, { all: true }).catch(() => {
        throw new UrlNotAllowedError(`"${url.hostname}" does not resolve`);
      });
      const refused = addresses.find(({ address: ip }) => isBlockedAddress(ip));
      if (refused) {
        throw new UrlNotAllowedError(`"${url.hostname}" resolves to ${refused.address}, a private, loopback, link-local, reserved or multicast address`);
      }
    },
    async post(address, post) {
      const url = parseUrl(address);
      const { operatorAllowed } = checkUrl(url, allowed);
      const signal = AbortSignal.timeout(post.timeoutMs);
      try {
        const response = await send(url, post, { operatorAllowed, ca, signal, agents });
        await drain(response);
        return { status: response.statusCode ?? 0 };
      } catch (error) {
        if (error instanceof UrlNotAllowedError || error instanceof FetchFailedError) throw error;
        if (signal.aborted) throw new FetchFailedError(`"${url.origin}" did not answer within ${post.timeoutMs} ms`, { cause: error });
        const code = (error as NodeJS.ErrnoException).code;
        throw new FetchFailedError(`Cannot reach "${url.origin}"${code ? ` (${code})` : ""}`, { cause: error });
      }
    },
  };
}

function parseUrl(address: string): URL {
  try {
    return new URL(address);
  } catch {
    throw new UrlNotAllowedError(`"${address.slice(0, 200)}" is not a URL`);
  }
}

function send(
  url: URL,
  post: WebhookPost,
  options: { operatorAllowed: boolean; ca?: string[]; signal: AbortSignal; agents: { http: HttpAgent; https: HttpsAgent } },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(post.body);
    const https = url.protocol === "https:";
    const request = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        agent: https ? options.agents.https : options.agents.http,
        headers: { ...post.headers, "Content-Type": "application/json", "Content-Length": String(body.length), "User-Agent": USER_AGENT },
        lookup: options.operatorAllowed ? undefined : guardedLookup,
        ca: options.ca,
        signal: options.signal,
      },
      resolve,
    );
    request.once("error", reject);
    request.end(body);
  });
}

/** Reads (and drops) the answer up to the bound, so the status is final; past it the socket is closed. */
async function drain(response: IncomingMessage): Promise<void> {
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      response.destroy();
      return;
    }
  }
}
