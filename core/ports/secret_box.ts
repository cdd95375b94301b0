/**
 * The secret box: secrets the server must read back (webhook signing secrets; X tokens next)
 * are stored sealed, so a copy of the database, a backup or a read-only SQL user does not
 * reveal them (docs/webhooks.md, "Secrets at rest"). The adapter (adapters/crypto/secret_box.ts)
 * seals with AES-256-GCM under the operator's `ENCRYPTION_KEY`.
 */

/** Seals and opens stored secrets. */
export interface SecretBox {
  /** `plain` sealed under the current key (a new random nonce each time). */
  seal(plain: string): string;
  /**
   * The secret `sealed` holds, under the current or the previous key. A value stored before
   * sealing existed (no sealed form) is answered as it is, until the hourly job seals it.
   */
  open(sealed: string): string;
  /** How every value sealed under the current key starts (a value that does not is sealed again by the hourly job). */
  currentPrefix: string;
}
