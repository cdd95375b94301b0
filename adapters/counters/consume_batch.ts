/**
 * Gathers the consumes issued in one turn of the event loop into one batch (redis_counters.ts):
 * the requests one socket poll delivered reach their bucket check in that turn when nothing
 * before it waits on I/O (the key cache answers from memory), and the batch leaves as one script
 * call in the loop's check phase. Under load this turns a command per request into about a
 * command per loop turn; alone, a consume waits for nothing but the end of its turn.
 */

/** One consume's part of the batch script's input. */
export interface BatchedConsume {
  keys: string[];
  /** The consume's check count, then limit, cost, ttl_ms per check. */
  args: number[];
}

/** The most consumes one script call decides; more wait for the next call. */
const MAX_BATCH = 128;

/** Queues consumes and runs `run` once per loop turn on those queued (in order); each answer is its consume's reply. */
export function consumeBatches(run: (batch: BatchedConsume[]) => Promise<number[][]>): { decide(consume: BatchedConsume): Promise<number[]> } {
  const queued: { consume: BatchedConsume; resolve: (reply: number[]) => void; reject: (error: unknown) => void }[] = [];
  const flush = () => {
    const taken = queued.splice(0, MAX_BATCH);
    if (queued.length > 0) setImmediate(flush);
    run(taken.map((entry) => entry.consume)).then(
      (replies) => {
        for (const [i, entry] of taken.entries()) entry.resolve(replies[i]);
      },
      (error: unknown) => {
        for (const entry of taken) entry.reject(error);
      },
    );
  };
  return {
    decide(consume) {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(flush);
        queued.push({ consume, resolve, reject });
      });
    },
  };
}
