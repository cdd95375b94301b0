/**
 * PKCE (RFC 7636) for the connect flow: a random verifier kept server-side, its S256
 * challenge sent in the authorize URL, so only the server that started a connection can
 * finish it; and the one-time `state` that ties X's redirect back to that start.
 */
import { base64url, randomBytes } from "../crypto/random.ts";
import { sha256 } from "../crypto/sha256.ts";

/** A fresh verifier (43 characters, RFC 7636's minimum length and 256 bits of randomness) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(sha256(verifier)) };
}

/** A one-time `state`: 256 random bits (X allows up to 500 characters). */
export function connectState(): string {
  return base64url(randomBytes(32));
}
