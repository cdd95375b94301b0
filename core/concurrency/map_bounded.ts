/**
 * Running a task per item with at most a few in flight at once: written once for the job
 * runner's handlers, webhook deliveries and dataset outreach drafts.
 */

/**
 * Calls `task` for every item, at most `limit` at a time, and resolves once all have
 * settled; answers are in the items' order. A task that rejects rejects the whole run
 * after the ones in flight end (callers catch per item what they mean to count).
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
