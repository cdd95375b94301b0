/**
 * Publishing while an account needs reconnecting (docs/x.md): a post whose account has no
 * working X credentials (NetworkAuthLostError: `reauth_required`, never connected) is not
 * failed. It stays `scheduled` and its job is deferred without spending an attempt; the job
 * looks again every REAUTH_RECHECK_MS, and connecting the account makes it due at once
 * (resumeAccountPublishing).
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import { JobDeferral } from "../jobs/job_deferral.ts";
import { NetworkAuthLostError } from "../network/network_errors.ts";
import { wakePublishJobsOf } from "./publish_pause_queries.ts";

/** How often a paused post's job looks whether its account was connected again. */
export const REAUTH_RECHECK_MS = 15 * 60 * 1000;

/** Whether `error` pauses the account's publishing instead of failing the post. */
export function pausesPublishing(error: unknown): error is NetworkAuthLostError {
  return error instanceof NetworkAuthLostError;
}

/** The deferral of a paused post's job: it looks again in REAUTH_RECHECK_MS. */
export function reauthDeferral(postId: number, error: NetworkAuthLostError, now: number): JobDeferral {
  const retryAt = new Date(now + REAUTH_RECHECK_MS);
  return new JobDeferral(retryAt, `Scheduled post "${postId}" waits for its account to be connected again (${error.message})`, { cause: error });
}

/** Makes the paused publish jobs of `accountId` due now: call it once the account is connected again. */
export function resumeAccountPublishing(deps: { sql: Sql; clock: Clock }, accountId: string): Promise<number> {
  return wakePublishJobsOf(deps.sql, accountId, new Date(deps.clock.now()));
}
