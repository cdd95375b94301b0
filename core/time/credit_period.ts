/**
 * Credit pool periods (spec: AI credits), also the post quota's billing month: a monthly
 * period renews on the billing date (the anchor's day of month, clamped to short months: a
 * 31st anchor renews on 28 February), a daily one at midnight UTC.
 */
import { DAY_MS } from "./durations.ts";

/**
 * The AI credit pool (spec: AI credits): paid plans get a monthly pool from the
 * billing date, trials a daily pool. One credit is one cent of model spend.
 */
export interface CreditAllowance {
  period: "monthly" | "daily";
  credits: number;
}

/** A period's bounds. */
export interface CreditPeriod {
  start: Date;
  end: Date;
}

/** The period containing `now`. */
export function creditPeriodAt(allowance: CreditAllowance, anchor: Date, now: Date): CreditPeriod {
  if (allowance.period === "daily") {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { start, end: new Date(start.getTime() + DAY_MS) };
  }
  // Before the billing date itself (a clock slightly behind the database's), the first period applies.
  if (now < anchor) return { start: anchor, end: addMonths(anchor, 1) };
  let months = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, months) > now) months -= 1;
  return { start: addMonths(anchor, months), end: addMonths(anchor, months + 1) };
}

/** `anchor` plus `months`, keeping its day of month where the month has it and its time of day. */
export function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}
