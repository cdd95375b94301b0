/**
 * The event bell and the event feed over it. The bell tells this process that events were committed (migration 0033's trigger
 * notifies `threadline_events` at each commit that inserted events). On PostgreSQL it is a
 * `LISTEN` on one connection of the process, hearing every process's commits; on embedded PGlite
 * the one backend's notifications, read in this process (adapters/postgres/event_bell.ts). The
 * feed (core/events/event_feed.ts builds it) wakes the process's open event streams from it.
 */

/** A subscription to the bell. */
export interface EventBell {
  /**
   * Calls `ring` after every commit that inserted events, and once more each time the listener
   * (re)connects, since a notification sent while it was away is lost. Answers how to stop.
   */
  listen(ring: () => void): Promise<() => Promise<void>>;
}

/** The channel migration 0033's trigger notifies. */
export const EVENTS_CHANNEL = "threadline_events";

/** The process's feed of event streams. */
export interface EventFeed {
  /** Calls `wake` whenever events of `ownerId` may have become readable; answers how to stop. */
  watch(ownerId: number, wake: () => void): () => void;
  /** Stops listening (the runtime closes it before the database). */
  close(): Promise<void>;
}
