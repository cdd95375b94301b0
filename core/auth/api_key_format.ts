/**
 * API key format (ARCHITECTURE: API keys): `<prefix>` + 24 base62 characters of
 * randomness (about 143 bits) + a 6-character base62 checksum, so a mistyped key is
 * refused without a database lookup. Keys are stored only as their SHA-256 hash.
 */
import { constantTimeEqual } from "../crypto/constant_time.ts";
import { randomBytes } from "../crypto/random.ts";
import { sha256, sha256Hex } from "../crypto/sha256.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 24;
const CHECKSUM_LENGTH = 6;

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // Rejection sampling keeps every character equally likely (248 = 4 * 62).
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(prefix: string, body: string): string {
  const digest = sha256(`${prefix}${body}`);
  let value = new DataView(digest.buffer).getUint32(0);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Creates a new random key with `prefix`. */
export function generateApiKey(prefix: string): string {
  const body = randomBase62(BODY_LENGTH);
  return `${prefix}${body}${checksum(prefix, body)}`;
}

/** True when `key` has the shape and checksum of a key issued with `prefix`. */
export function isWellFormedApiKey(key: string, prefix: string): boolean {
  if (!key.startsWith(prefix) || key.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const body = key.slice(prefix.length, prefix.length + BODY_LENGTH);
  if (![...body].every((ch) => ALPHABET.includes(ch))) return false;
  return constantTimeEqual(checksum(prefix, body), key.slice(prefix.length + BODY_LENGTH));
}

/** The SHA-256 of a key, as stored (hex). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The short form shown in key listings, e.g. `sxk_7Gq2…x9Ab`. */
export function displayApiKey(key: string, prefix: string): string {
  return `${key.slice(0, prefix.length + 4)}…${key.slice(-4)}`;
}
