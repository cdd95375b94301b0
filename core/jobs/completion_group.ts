/**
 * Completing a batch's jobs as they succeed, grouped: the jobs that succeed in the same turn
 * of the event loop, or while the previous statement runs, are completed by one statement.
 * A fast job is `done` when it ends, not when the batch's slowest one does (a 3-second
 * corpus ingest used to hold a whole batch of hourly purges `running`), and a batch of fast
 * jobs still costs about one statement (bench/jobs_throughput.ts).
 */
import type { Queryable } from "../db/sql.ts";
import { completeJobs } from "./jobs_queries.ts";

/** Completes the ids it is given, in groups; `settled()` answers how many it completed. */
export interface CompletionGroup {
  add(id: number): void;
  /**
   * Takes back the ids no statement has started on (the last to succeed), for the caller to
   * complete with its next claim (`claimJobsCompleting`); call before `settled()`.
   */
  takeWaiting(): number[];
  /** Waits for every added id; rejects with the first statement's error, if any failed. */
  settled(): Promise<number>;
}

/** Opens a completion group on `sql` for the jobs `runnerId` holds. */
export function completionGroup(sql: Queryable, runnerId: string): CompletionGroup {
  let waiting: number[] = [];
  let flushing: Promise<void> | undefined;
  let completed = 0;
  let failure: { error: unknown } | undefined;

  const flush = async () => {
    // Let the handlers ending in this turn join the first statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length > 0 && !failure) {
      const ids = waiting;
      waiting = [];
      try {
        completed += await completeJobs(sql, ids, { runnerId });
      } catch (error) {
        // The ids stay `running` under this runner's lease: once it lapses they run again
        // (at least once, JobHandler), as when a runner dies before completing.
        failure = { error };
      }
    }
  };

  return {
    add(id) {
      waiting.push(id);
      flushing ??= flush().finally(() => {
        flushing = undefined;
      });
    },
    takeWaiting() {
      const taken = waiting;
      waiting = [];
      return taken;
    },
    async settled() {
      while (flushing) await flushing;
      if (failure) throw failure.error;
      return completed;
    },
  };
}
