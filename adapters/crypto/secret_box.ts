/**
 * The secret box (core/ports/secret_box.ts) over AES-256-GCM (node:crypto). A sealed value is
 * `tl1.<key id>.<base64url of nonce, ciphertext and tag>`: the key id (the first 8 hex digits of
 * the key's SHA-256) says which key opens it, so `ENCRYPTION_KEY` can be replaced: the old key
 * goes to `ENCRYPTION_KEY_PREVIOUS` and the hourly webhook job seals every value again under the
 * new one. Without `ENCRYPTION_KEY` the key is generated once and kept in the database
 * (`instance_secrets`, like the media signing secret), which protects nothing against a copy
 * of the database: the server warns about it on PostgreSQL.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { SecretBox } from "../../core/ports/secret_box.ts";
import type { Queryable } from "../../core/db/sql.ts";
import { instanceSecret } from "../../core/db/instance_secrets_queries.ts";

const PREFIX = "tl1.";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The `instance_secrets` row of a generated key. */
const GENERATED_KEY_NAME = "encryption_key";

/** The keys, base64: the current one and, while values sealed under it remain, the previous one. */
export interface SecretKeys {
  key: string;
  previousKey?: string;
}

/** The operator's keys as configured (either may be absent). */
export interface SecretKeySettings {
  key?: string;
  previousKey?: string;
}

/**
 * A 32-byte key from its text: 64 hex digits or base64 (standard or URL-safe) of 32 bytes.
 * Anything else stops the start, naming `name`.
 */
export function parseEncryptionKey(raw: string, name: string): Buffer {
  const text = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(text) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(text))) {
    throw new Error(`${name} must be 32 random bytes as base64 or 64 hex digits (generate one with: openssl rand -base64 32)`);
  }
  return bytes;
}

/**
 * The keys to use: the configured ones, else the key generated once for this database (the
 * first process creates it; every process on the database reads the same; `serve` warns about
 * it on PostgreSQL).
 */
export async function resolveSecretKeys(settings: SecretKeySettings, sql: Queryable): Promise<SecretKeys> {
  if (settings.key) return { key: settings.key, previousKey: settings.previousKey };
  const key = await instanceSecret(sql, GENERATED_KEY_NAME, randomBytes(32).toString("base64"));
  return { key, previousKey: settings.previousKey };
}

/** A box sealing under `keys.key` and opening under it or `keys.previousKey`. */
export function createSecretBox(keys: SecretKeys): SecretBox {
  const current = parseEncryptionKey(keys.key, "ENCRYPTION_KEY");
  const byId = new Map<string, Buffer>([[keyId(current), current]]);
  if (keys.previousKey) {
    const previous = parseEncryptionKey(keys.previousKey, "ENCRYPTION_KEY_PREVIOUS");
    byId.set(keyId(previous), previous);
  }
  const currentPrefix = `${PREFIX}${keyId(current)}.`;
  return {
    seal(plain) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, nonce);
      const body = Buffer.concat([nonce, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `${currentPrefix}${body.toString("base64url")}`;
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const [, id, body] = stored.split(".");
      const key = byId.get(id ?? "");
      if (!key || !body) throw new Error(`A stored secret is sealed with a key this server does not hold (key id ${id}); set ENCRYPTION_KEY_PREVIOUS to it`);
      const bytes = Buffer.from(body, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    },
    currentPrefix,
  };
}

/** The first 8 hex digits of the key's SHA-256: names the key in sealed values without revealing it. */
function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}
