/**
 * The gates every scheduling write passes (spec: Errors; rule 9): the scheduling service
 * must be reachable (`THREADLINE_FAULTS=scheduler` makes it unreachable: `503
 * upstream_unavailable`, never a silent success), and scheduling needs a finished
 * onboarding (`403 onboarding_required`).
 */
import type { Context } from "../context.ts";
import type { Principal } from "../request_state/principal.ts";
import { ApiError } from "../errors.ts";

/** Refuses when the scheduling service is down; every `/v1/scheduled-posts` and `/v1/queue-settings` call checks it. */
export function assertSchedulerReachable(ctx: Context): void {
  if (ctx.services.faults.has("scheduler")) {
    throw new ApiError("upstream_unavailable", "The scheduling service is unreachable; nothing was changed. Retry later (reuse the Idempotency-Key on POST)");
  }
}

/** Refuses users who have not finished onboarding in the app. */
export function assertOnboarded(principal: Principal): void {
  if (!principal.onboarded) {
    throw new ApiError("onboarding_required", "Finish onboarding in the Threadline app before scheduling posts");
  }
}
