/**
 * The SSRF guard of the page reader (spec Errors: `url_not_allowed` "rejects non-https,
 * private or reserved addresses, embedded credentials"): every address a host name
 * resolves to must be public, checked again on every redirect.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { UrlNotAllowedError } from "../../core/pages/page_reader.ts";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::ffff:0:0", 96],
  ["2001:db8::", 32],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Throws `UrlNotAllowedError` unless `url` is http(s), without credentials, on public addresses only. */
export async function assertPublicUrl(url: URL, options: { allowPrivate?: boolean } = {}): Promise<void> {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UrlNotAllowedError(`Only http(s) URLs can be read, not "${url.protocol}"`);
  if (url.username || url.password) throw new UrlNotAllowedError("URLs with embedded credentials are not read");
  if (options.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true }).catch(() => {
        throw new UrlNotAllowedError(`Cannot resolve "${host}"`);
      });
  for (const { address, family } of addresses) {
    if (blocked.check(address, family === 6 ? "ipv6" : "ipv4")) throw new UrlNotAllowedError(`"${host}" resolves to a private or reserved address`);
  }
}
