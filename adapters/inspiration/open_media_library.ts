/**
 * Chooses the MediaLibrary adapter from the configuration: the hosted library over HTTP
 * when `INSPIRATION_MEDIA_URL` is set, else the simulated library seeded like the
 * simulated network (`THREADLINE_NETWORK_SEED`), which keeps the embedded default usable
 * offline and repeatable.
 */
import type { MediaLibrary } from "../../core/ports/media_library.ts";
import { DEFAULT_NETWORK_SEED } from "../x/open_network.ts";
import { createHttpMediaLibrary } from "./http_media_library.ts";
import { createSimulatedMediaLibrary } from "./simulated_media_library.ts";

/** The configuration fields the library reads. */
export interface MediaLibrarySettings {
  /** `INSPIRATION_MEDIA_URL`: the hosted library's root. */
  url?: string;
  /** `INSPIRATION_MEDIA_KEY`: its bearer token. */
  key?: string;
  /** `INSPIRATION_MEDIA_TIMEOUT_MS` (default 10 000). */
  timeoutMs?: number;
  /** Seed of the simulated library (the network's). */
  seed?: number;
}

/** The library for `settings`; a malformed URL or timeout stops the start with the variable named. */
export function openMediaLibrary(settings: MediaLibrarySettings): MediaLibrary {
  if (!settings.url) return createSimulatedMediaLibrary({ seed: settings.seed ?? DEFAULT_NETWORK_SEED });
  if (!URL.canParse(settings.url) || !/^https?:$/.test(new URL(settings.url).protocol)) {
    throw new Error(`"INSPIRATION_MEDIA_URL" must be an http(s) URL, got "${settings.url.slice(0, 100)}"`);
  }
  if (settings.timeoutMs !== undefined && !(Number.isFinite(settings.timeoutMs) && settings.timeoutMs >= 1)) {
    throw new Error(`"INSPIRATION_MEDIA_TIMEOUT_MS" must be a number of at least 1, got "${settings.timeoutMs}"`);
  }
  return createHttpMediaLibrary({ baseUrl: settings.url, apiKey: settings.key, timeoutMs: settings.timeoutMs });
}
