/**
 * From a worth-reading score to a lane and `pct` (spec: triage, "`pct` runs 50 to 99 on
 * read and pass lanes and is the raw worth-reading score on unsure"): on read, the
 * score as a percentage; on pass, its complement; on unsure, the score itself.
 */

/** A triage lane. */
export type Lane = "read" | "pass" | "unsure";

/** Scores at or above this are read; at or below `PASS_AT` passed; between, unsure. */
const READ_AT = 0.6;
const PASS_AT = 0.4;

/** The lane of `score` (0 to 1) and its `pct`. */
export function laneOf(score: number): { lane: Lane; pct: number } {
  const clamp = (value: number) => Math.min(99, Math.max(50, Math.round(value * 100)));
  if (score >= READ_AT) return { lane: "read", pct: clamp(score) };
  if (score <= PASS_AT) return { lane: "pass", pct: clamp(1 - score) };
  return { lane: "unsure", pct: Math.round(score * 100) };
}
