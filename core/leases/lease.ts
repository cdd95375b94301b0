/**
 * Leases, the non-SQL half (lease_queries.ts holds the SQL): "publish exactly once" and
 * "deliver one attempt at a time" both claim a row for a holder for a while, on the
 * database's clock, so two processes never work one row at once and a crashed holder's
 * claim passes (ARCHITECTURE "Jobs": several server processes on one database must never
 * run one piece of work twice at once).
 */

/** Who holds a row, for how long. */
export interface Lease {
  /** Random per call: two calls of one process are two holders. */
  holder: string;
  leaseSeconds: number;
}

/**
 * A lease for a new call: its own random holder, after `holderPrefix` (a job runner's, see
 * `runnerHolderPrefix`, so the runner's shutdown can release what it holds).
 */
export function newLease(leaseSeconds: number, holderPrefix = ""): Lease {
  return { holder: `${holderPrefix}${crypto.randomUUID()}`, leaseSeconds };
}

/** The prefix of the leases a job runner's handlers take (their holders start with it), so its shutdown can release them. */
export function runnerHolderPrefix(runnerId: string): string {
  return `${runnerId}|`;
}

/**
 * Runs `attempt` until it is not `busy` (another holder's lease runs) or `waitMs` passed,
 * looking every `pollMs`; answers the last result, busy or not.
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, busy: (result: T) => boolean, options: { waitMs: number; pollMs: number }): Promise<T> {
  const deadline = performance.now() + options.waitMs;
  for (;;) {
    const result = await attempt();
    if (!busy(result) || performance.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
