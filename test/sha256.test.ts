/** core/crypto/sha256.ts against node:crypto (core may not import it; the test may). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { sha256Hex } from "../core/crypto/sha256.ts";
import { base64url } from "../core/crypto/random.ts";
import { constantTimeEqual } from "../core/crypto/constant_time.ts";

const nodeHex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

test("sha256Hex matches the FIPS 180-4 examples and every padding boundary", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  for (let length = 0; length <= 200; length++) {
    const text = "x".repeat(length);
    assert.equal(sha256Hex(text), nodeHex(text), `length ${length}`);
  }
  const large = new Uint8Array(1024 * 1024 + 3).map((_, i) => (i * 31) & 0xff);
  assert.equal(sha256Hex(large), nodeHex(large));
});

test("sha256Hex matches node:crypto on arbitrary text and bytes (UTF-8 for text)", () => {
  fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => sha256Hex(text) === nodeHex(text)));
  fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => sha256Hex(bytes) === nodeHex(bytes)));
});

test("base64url matches Buffer's base64url; constantTimeEqual compares whole strings", () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => base64url(bytes) === Buffer.from(bytes).toString("base64url")));
  assert.equal(constantTimeEqual("abc", "abc"), true);
  assert.equal(constantTimeEqual("abc", "abd"), false);
  assert.equal(constantTimeEqual("abc", "ab"), false);
});
