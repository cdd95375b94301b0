/**
 * In-process cache of key lookups by hash. Entries live at most `ttlMs` (30 s by
 * default), inside the spec's bound "Revocation takes effect within 60 seconds"
 * (Authentication 3) even when another process revoked the key; a revoke in this
 * process drops the entry at once.
 */
import type { Principal } from "../request_state/principal.ts";

/** A bounded, expiring map from key hash to principal. */
export interface KeyCache {
  get(hash: string, nowMs: number): Principal | undefined;
  set(hash: string, principal: Principal, nowMs: number): void;
  /** Drops every entry of one key id (revocation, rotation). */
  forgetKey(keyId: number): void;
  clear(): void;
}

/** Creates a cache holding at most `maxEntries` principals for at most `ttlMs`. */
export function createKeyCache(ttlMs = 30_000, maxEntries = 10_000): KeyCache {
  // Never longer than the revocation bound, whatever the configuration says.
  ttlMs = Math.min(ttlMs, 60_000);
  const entries = new Map<string, { principal: Principal; expiresAt: number }>();
  return {
    get(hash, nowMs) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (entry.expiresAt <= nowMs) {
        entries.delete(hash);
        return undefined;
      }
      return entry.principal;
    },
    set(hash, principal, nowMs) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(hash, { principal, expiresAt: nowMs + ttlMs });
    },
    forgetKey(keyId) {
      for (const [hash, entry] of entries) if (entry.principal.key.id === keyId) entries.delete(hash);
    },
    clear() {
      entries.clear();
    },
  };
}
