/** Random bytes and their text forms from Web Crypto (`globalThis.crypto`), for core/ (no node:*). */

/** `length` cryptographically random bytes. */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** `bytes` as unpadded base64url (RFC 4648 section 5). */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
