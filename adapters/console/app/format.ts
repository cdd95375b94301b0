/** How the console writes numbers, money and times. */
const whole = new Intl.NumberFormat();
const dollars = new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" });

export const count = (value: number) => whole.format(value);
export const usd = (value: number) => dollars.format(value);

/** An instant in `timeZone` (the browser's when not given), date and time. */
export function dateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone });
}
