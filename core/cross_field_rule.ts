/**
 * A rule between two or more fields of one input, checked by the input's zod schema so the
 * endpoint's contract is written once and checked at the input step, before account resolution
 * (docs/architecture.md: The request path, step 6). It runs only once every field parsed: a request with a bad field then still answers that field's message alone
 * (core/api_failure.ts `describeIssues` names the first issue and counts the rest), as it did
 * when the rule was checked in the endpoint's code after the parse.
 */
import type { z } from "zod";

/** Reports one problem at `path` (`Invalid "path": message`). */
export type FailAt = (path: readonly PropertyKey[], message: string) => void;

/** A `.check()` step that runs `rule` on a fully parsed value. */
export function crossFieldRule<T>(rule: (value: T, fail: FailAt) => void) {
  return (payload: z.core.ParsePayload<T>): void => {
    if (payload.issues.length > 0) return;
    rule(payload.value, (path, message) => {
      payload.issues.push({ code: "custom", path: [...path], message, input: payload.value });
    });
  };
}
