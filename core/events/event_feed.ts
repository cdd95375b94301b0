/**
 * The event feed: one per process, it tells the open event streams when their owner's events
 * may have become readable, instead of each stream polling the database. It listens
 * to the event bell (core/ports/event_feed.ts: a commit that inserted events), and on each ring
 * runs the sequencer once and reads which owners have events past the last position it saw
 * (one small query however many streams are open), then wakes those owners' streams, which read
 * their own events. It also rings itself every `pollMs` while streams are open, so a
 * notification lost with a dropped connection costs at most that long.
 */
import type { Sql } from "../db/sql.ts";
import type { EventBell, EventFeed } from "../ports/event_feed.ts";
import { lastSequenced, ownersWithEventsAfter } from "./events_queries.ts";
import { sequenceAllEvents } from "./sequence_events.ts";

/** A feed over `sql`, rung by `bell` (absent: by its own tick alone) and every `pollMs` while streams are open. */
export function createEventFeed(sql: Sql, bell: EventBell | undefined, options: { pollMs: number }): EventFeed {
  const watchers = new Map<number, Set<() => void>>();
  let streams = 0;
  // The highest position the feed has looked past; unknown while no stream is open.
  let last: number | undefined;
  let running = false;
  let again = false;
  let tick: ReturnType<typeof setInterval> | undefined;
  let listening: Promise<() => Promise<void>> | undefined;

  const wakeAll = () => {
    for (const wakes of watchers.values()) for (const wake of wakes) wake();
  };
  async function lookOnce(): Promise<void> {
    await sequenceAllEvents(sql);
    if (last === undefined) {
      // First look since streams opened: each stream reads from its own position anyway.
      last = await lastSequenced(sql);
      wakeAll();
      return;
    }
    for (const owner of await ownersWithEventsAfter(sql, last)) {
      last = Math.max(last, owner.seq);
      for (const wake of watchers.get(owner.owner_id) ?? []) wake();
    }
  }
  /** Runs a look; a ring during one runs one more after it (rings never pile up). */
  function ring(): void {
    if (streams === 0) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        try {
          await lookOnce();
        } catch {
          // The database is away (shutdown, a restart): the next ring or tick looks again, and a
          // stream whose key check fails ends on its own.
        }
      } while (again && streams > 0);
      running = false;
    })();
  }

  return {
    watch(ownerId, wake) {
      let wakes = watchers.get(ownerId);
      if (!wakes) watchers.set(ownerId, (wakes = new Set()));
      const own = () => wake();
      wakes.add(own);
      streams++;
      if (streams === 1) {
        tick = setInterval(ring, options.pollMs);
        tick.unref?.();
      }
      listening ??= bell?.listen(ring).catch(() => async () => {});
      return () => {
        if (!wakes.delete(own)) return;
        if (wakes.size === 0) watchers.delete(ownerId);
        streams--;
        if (streams === 0) {
          clearInterval(tick);
          last = undefined;
        }
      };
    },
    async close() {
      clearInterval(tick);
      const stop = await listening;
      listening = undefined;
      await stop?.().catch(() => {});
    },
  };
}
