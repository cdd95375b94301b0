/** A clock tests move by hand. */
import type { Clock } from "../../core/clock.ts";

/** A clock at `start` that only moves when told. */
export function manualClock(start: string | number): Clock & { set(time: string | number): void; advance(ms: number): void } {
  let now = typeof start === "string" ? Date.parse(start) : start;
  return {
    now: () => now,
    set(time) {
      now = typeof time === "string" ? Date.parse(time) : time;
    },
    advance(ms) {
      now += ms;
    },
  };
}
