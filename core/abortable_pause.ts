/** A wait that a shutdown or a departing client cuts short: the job loops and the event stream use it. */

/**
 * Waits `ms`, or less when `signal` aborts first; `hold`, when given, receives the function that
 * ends the wait early (an event stream's feed calls it when news arrives).
 */
export function pause(ms: number, signal: AbortSignal, hold?: (end: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    hold?.(done);
  });
}
