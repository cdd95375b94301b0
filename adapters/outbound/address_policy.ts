/**
 * Which addresses an outbound fetch may reach (spec Errors: `url_not_allowed` "rejects
 * non-https, private or reserved addresses, embedded credentials"): public unicast only,
 * IPv4 and IPv6, IPv4-mapped and translated IPv6 forms included. Hosts the operator names
 * in `OUTBOUND_ALLOW_HOSTS` pass without the address check and may use http.
 */
import { BlockList, isIP } from "node:net";
import { UrlNotAllowedError } from "../../core/outbound/outbound.ts";

// Two lists: node's BlockList applies an IPv6 rule for IPv4-mapped addresses (`::ffff:0:0/96`)
// to every IPv4 address too, so one shared list would refuse the whole public IPv4 internet.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback and IPv4-compatible (deprecated, RFC 4291): any IPv4 inside
  ["::ffff:0:0", 96], // IPv4-mapped: never needed to reach a public host by name
  ["::ffff:0:0:0", 96], // IPv4-translated (RFC 2765): embeds any IPv4
  ["64:ff9b::", 96], // NAT64: could translate to a private IPv4
  ["64:ff9b:1::", 48], // local NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo among them)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds any IPv4
  ["3fff::", 20], // documentation (RFC 9637)
  ["5f00::", 16], // segment routing (SRv6) SIDs (RFC 9602)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blockedV6.addSubnet(network, prefix, "ipv6");
}

/**
 * The one refusal of an address that is not public, whether the host was an IP literal or a
 * name that resolved to one: it never names the address a name resolved to, so a tenant cannot
 * map the operator's internal names by asking.
 */
export const NOT_PUBLIC = (host: string) =>
  `"${host.slice(0, 100)}" is not a public address: only hosts on the public internet are fetched (https, no private, loopback, link-local or reserved addresses)`;

/** True when `address` (an IP literal) is private, loopback, link-local, reserved or multicast. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 6 ? blockedV6.check(address, "ipv6") : blockedV4.check(address, "ipv4");
}

/** The operator's allowed hosts: each `host` (any port) or `host:port`, lower-cased. */
export type AllowedHosts = ReadonlySet<string>;

/** Parses `OUTBOUND_ALLOW_HOSTS` entries (`host` or `host:port`, IPv6 in brackets); blanks are dropped. */
export function allowedHosts(entries: Iterable<string> | string | undefined): AllowedHosts {
  const list = typeof entries === "string" ? entries.split(",") : [...(entries ?? [])];
  return new Set(list.map((entry) => entry.trim().toLowerCase()).filter(Boolean));
}

/**
 * Checks what can be checked before connecting: the scheme (https, or http for an allowed
 * host), no credentials, and an IP-literal host's address. Answers whether the host is
 * allowed by the operator (then its resolved addresses are not checked either).
 */
export function checkUrl(url: URL, allowed: AllowedHosts): { operatorAllowed: boolean } {
  const operatorAllowed = isAllowedHost(url, allowed);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && operatorAllowed)) {
    throw new UrlNotAllowedError(`Only https URLs are fetched, not "${url.protocol.replace(/:$/, "")}" ("${url.origin}")`);
  }
  if (url.username || url.password) throw new UrlNotAllowedError("URLs with embedded credentials are not fetched");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!operatorAllowed && isIP(host) && isBlockedAddress(host)) {
    throw new UrlNotAllowedError(NOT_PUBLIC(url.hostname));
  }
  return { operatorAllowed };
}

function isAllowedHost(url: URL, allowed: AllowedHosts): boolean {
  if (allowed.size === 0) return false;
  const port = url.port || (url.protocol === "http:" ? "80" : "443");
  return allowed.has(url.hostname) || allowed.has(`${url.hostname}:${port}`);
}
