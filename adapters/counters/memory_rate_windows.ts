/**
 * Rate windows in this process's memory (core/ports/rate_windows.ts): the embedded default,
 * shared by the server and its in-process job runner.
 */
import type { RateWindows, ReportedWindow } from "../../core/ports/rate_windows.ts";

/** Creates rate windows held in memory. */
export function createMemoryRateWindows(): RateWindows {
  const reported = new Map<string, ReportedWindow>();
  /** Rolling windows: the times of the requests counted, oldest first. */
  const rolling = new Map<string, number[]>();

  const running = (key: string, nowMs: number) => {
    const window = reported.get(key);
    if (window && window.resetAtMs <= nowMs) reported.delete(key);
    return window && window.resetAtMs > nowMs ? window : undefined;
  };

  return {
    async reserve(request, nowMs) {
      for (const key of request.reported) {
        const window = running(key, nowMs);
        if (window && window.remaining <= 0) return { allowed: false, retryAtMs: window.resetAtMs, key };
      }
      let refused: { retryAtMs: number; key: string } | undefined;
      for (const check of request.rolling) {
        const times = (rolling.get(check.key) ?? []).filter((at) => at > nowMs - check.windowMs);
        rolling.set(check.key, times);
        if (times.length >= check.limit) {
          // Room comes back when enough of the oldest requests leave the window.
          const retryAtMs = times[times.length - check.limit] + check.windowMs;
          if (!refused || retryAtMs > refused.retryAtMs) refused = { retryAtMs, key: check.key };
        }
      }
      if (refused) return { allowed: false, ...refused };
      for (const key of request.reported) {
        const window = running(key, nowMs);
        if (window) window.remaining -= 1;
      }
      for (const check of request.rolling) rolling.get(check.key)?.push(nowMs);
      return { allowed: true };
    },

    async record(key, window, nowMs) {
      if (window.resetAtMs <= nowMs) return;
      const known = running(key, nowMs);
      if (known && known.resetAtMs > window.resetAtMs) return;
      const remaining = known && known.resetAtMs === window.resetAtMs ? Math.min(known.remaining, window.remaining) : window.remaining;
      reported.set(key, { limit: window.limit, remaining, resetAtMs: window.resetAtMs });
    },

    async peek(key, nowMs) {
      const window = running(key, nowMs);
      return window && { ...window };
    },

    async close() {
      reported.clear();
      rolling.clear();
    },
  };
}
