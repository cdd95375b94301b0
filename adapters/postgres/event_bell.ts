/**
 * The event bell's two adapters (core/ports/event_feed.ts). On PostgreSQL, `LISTEN` on one
 * connection of the pool's own (postgres.js opens it on the first `listen` and re-listens after a
 * reconnect). On embedded PGlite every connection shares one backend, and a notification reaches
 * whichever connection committed (or PGlite's own API), so the backend listens once and both
 * paths hand what they hear to this process's subscribers.
 */
import type { EventBell } from "../../core/ports/event_feed.ts";
import { EVENTS_CHANNEL } from "../../core/ports/event_feed.ts";
import type { Sql } from "../../core/db/sql.ts";

/** PostgreSQL: one `LISTEN` per subscriber on the pool's listen connection; a reconnect rings too. */
export function postgresEventBell(sql: Sql): EventBell {
  return {
    async listen(ring) {
      const listening = await sql.listen(
        EVENTS_CHANNEL,
        () => ring(),
        () => ring(),
      );
      return () => listening.unlisten();
    },
  };
}

/** Embedded: what the backend's notifications are handed to (`heard`), and the bell over it. */
export interface LocalEventBell extends EventBell {
  /** A notification arrived on `channel` (from the pool's connection or PGlite's own API). */
  heard(channel: string): void;
}

/** An in-process bell: every subscriber rings on each notification of the events channel. */
export function localEventBell(): LocalEventBell {
  const rings = new Set<() => void>();
  return {
    heard(channel) {
      if (channel !== EVENTS_CHANNEL) return;
      for (const ring of rings) ring();
    },
    async listen(ring) {
      const own = () => ring();
      rings.add(own);
      // Nothing can be missed before this point that a read after it would not see.
      ring();
      return async () => {
        rings.delete(own);
      };
    },
  };
}
