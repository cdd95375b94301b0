/**
 * The readable reason an `error` post carries (spec, docs/areas.md "Scheduling": `error`
 * with the reason after bounded retries); whether a failure is worth a retry is judged in
 * core/network/permanent_failure.ts.
 */
import { NetworkError } from "../network/network_errors.ts";
import { isPermanentFailure } from "../network/permanent_failure.ts";

/** Where the failure happened: part `index` (0-based) of `count`, after `attempts` attempts. */
export interface FailureWhere {
  index: number;
  count: number;
  attempts: number;
}

/** The reason a failed post shows its owner; internal errors are not repeated verbatim. */
export function failureReason(error: unknown, where: FailureWhere): string {
  const part = where.count === 1 ? "the post" : `part ${where.index + 1} of ${where.count}`;
  // Scheduled again unchanged, those parts are not posted twice (carried_parts.ts).
  const live =
    where.index === 0
      ? ""
      : where.index === 1
        ? " (part 1 is already published; scheduled again, the post continues after it)"
        : ` (parts 1-${where.index} are already published; scheduled again, the post continues after them)`;
  if (isPermanentFailure(error)) return `X refused ${part}: ${(error as Error).message}${live}`;
  const tries = where.attempts === 1 ? "1 attempt" : `${where.attempts} attempts`;
  if (error instanceof NetworkError) return `X could not publish ${part} after ${tries}: ${error.message}${live}`;
  return `Publishing ${part} failed after ${tries} because of an internal error${live}`;
}
