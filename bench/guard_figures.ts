/** The figures `npm run bench:guard` judges (guard.ts), and how it judges them. */

/** How far short of its target a ratio may fall before the guard fails (25%). */
export const GUARD_SLACK = 0.25;

/** One guarded figure: its value, target and verdict. */
export interface GuardFigure {
  name: string;
  value: number;
  target: number;
  /** Higher is better (a throughput share) or lower is better (a latency multiple). */
  better: "higher" | "lower";
  /** What each round measured, printed beside the verdict. */
  rounds: number[];
}

/** The value a figure may not pass: its target moved 25% the wrong way. */
export function guardLimit(figure: Pick<GuardFigure, "target" | "better">): number {
  return figure.better === "higher" ? figure.target * (1 - GUARD_SLACK) : figure.target * (1 + GUARD_SLACK);
}

/** Whether `figure` stays within its limit. */
export function guardHolds(figure: GuardFigure): boolean {
  return figure.better === "higher" ? figure.value >= guardLimit(figure) : figure.value <= guardLimit(figure);
}

/** The round a figure is judged on: the highest where higher is better, else the lowest. */
export function bestRound(values: number[], better: GuardFigure["better"]): number {
  if (values.length === 0) throw new Error("A guarded figure needs at least one round");
  return better === "higher" ? Math.max(...values) : Math.min(...values);
}

/** The middle of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
