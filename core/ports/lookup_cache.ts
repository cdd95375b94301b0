/**
 * The live-lookup cache (spec X Lookups: "results cached about 15 minutes"; Limits 8:
 * "Repeat lookups within about 15 minutes cost enrichment units but not the daily
 * allowance"). Per process and bounded: another process may read X once more, which
 * "about" allows and which costs no more than the spec's own first lookup.
 */

/** An expiring, size-bounded map. */
export interface LookupCache {
  get<T>(key: string, nowMs: number): T | undefined;
  set(key: string, value: unknown, nowMs: number): void;
}

/** How long a lookup is served from the cache. */
export const LOOKUP_TTL_MS = 15 * 60_000;

/** Creates a cache of at most `maxEntries` entries kept `ttlMs`. */
export function createLookupCache(ttlMs = LOOKUP_TTL_MS, maxEntries = 20_000): LookupCache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  return {
    get<T>(key: string, nowMs: number) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= nowMs) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    set(key, value, nowMs) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expiresAt: nowMs + ttlMs });
    },
  };
}
