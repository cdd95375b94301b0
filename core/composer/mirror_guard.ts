/**
 * The reference guard for `mirror` (spec: `POST /v1/posts/draft`, "a mirror that is
 * list-style or engagement bait is refused `400 mirror_rejected` before any charge"):
 * a mirror gives its shape to a draft, and those two shapes are the ones not worth
 * copying. Measured from the text: list lines, and bait phrases.
 */
import { ApiError } from "../errors.ts";

const LIST_LINE = /^\s*(?:✔️|[-*•·▪►→✅✔👉🔹🔸]|\d{1,2}[.)/]|[a-z][.)])\s+\S/iu;

const BAIT = [
  /\b(?:like|rt|retweet|repost|share|bookmark)\s+(?:this\s+)?if\b/i,
  // The verb in any case, the word to send in capitals ("Comment YES", "reply GUIDE").
  /\b(?:[Cc]omment|[Rr]eply|[Dd]rop|[Tt]ype)\s+["“']?[A-Z0-9]{2,}["”']?(?:\s|$|[.!,])/,
  /\bfollow\s+(?:me\s+)?(?:for|to get)\b/i,
  /\b(?:who else|agree\?|yes or no\?|thoughts\?\s*$)/im,
  /\btag\s+(?:a|someone|your)\b/i,
  /\bsay\s+["“']?(?:yes|i do|aye)["”']?\b/i,
];

/** Why a mirror is refused, or undefined when it may be used. */
export function mirrorProblem(mirror: string): string | undefined {
  const lines = mirror.split("\n").filter((line) => line.trim());
  const listLines = lines.filter((line) => LIST_LINE.test(line)).length;
  if (listLines >= 3 && listLines >= lines.length / 2) return `it is list-style (${listLines} of ${lines.length} lines are list items)`;
  const bait = BAIT.find((pattern) => pattern.test(mirror));
  if (bait) return "it asks for engagement instead of earning it (engagement bait)";
  return undefined;
}

/** Throws `400 mirror_rejected` for a mirror the guard refuses. */
export function assertUsableMirror(mirror: string | undefined): void {
  if (mirror === undefined) return;
  const problem = mirrorProblem(mirror);
  if (problem) throw new ApiError("mirror_rejected", `The mirror was refused: ${problem}; paste a post whose shape is worth copying`);
}
