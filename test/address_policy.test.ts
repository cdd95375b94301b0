/**
 * The outbound guard's address policy (adapters/outbound/address_policy.ts; spec Errors:
 * `url_not_allowed` "rejects non-https, private or reserved addresses"): public unicast passes
 * in both families, every special-purpose range that can hide a private address is refused,
 * and a refusal never names the address a host name resolved to.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkUrl, isBlockedAddress, NOT_PUBLIC } from "../adapters/outbound/address_policy.ts";

describe("outbound address policy", () => {
  test("public IPv4 and IPv6 addresses pass", () => {
    for (const address of ["1.1.1.1", "8.8.8.8", "93.184.216.34", "151.101.1.140", "2606:4700::1111", "2a00:1450:4001:82a::200e"]) {
      assert.equal(isBlockedAddress(address), false, address);
    }
  });

  test("private, loopback, link-local, reserved and IPv4-embedding IPv6 forms are refused", () => {
    for (const address of [
      "10.0.0.1",
      "127.0.0.1",
      "169.254.169.254",
      "192.168.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "::",
      "::1",
      "::10.0.0.1", // IPv4-compatible (::/96)
      "::a9fe:a9fe", // the same form of 169.254.169.254
      "::ffff:127.0.0.1", // IPv4-mapped
      "::ffff:0:10.0.0.1", // IPv4-translated
      "64:ff9b::a00:1", // NAT64 of 10.0.0.1
      "2002:a00:1::1", // 6to4 of 10.0.0.1
      "2001:db8::1",
      "3fff::1",
      "5f00::1",
      "fd00::1",
      "fe80::1",
      "ff02::1",
      "not an address",
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
  });

  test("the refusal is one generic message that quotes only the host the caller sent, at most 100 characters of it", () => {
    assert.throws(
      () => checkUrl(new URL("https://[::10.0.0.1]/x"), new Set()),
      (error: Error) => error.message === NOT_PUBLIC("[::a00:1]"),
    );
    const long = `${"a".repeat(200)}.example`;
    const message = NOT_PUBLIC(long);
    assert.ok(!message.includes(long) && message.includes("a".repeat(100)), message);
    assert.doesNotMatch(NOT_PUBLIC("intranet.corp"), /\d+\.\d+\.\d+\.\d+/);
  });
});
