/**
 * The DM sender's jobs: `send_dms` sends one account's due messages (core/dm/dm_sender.ts);
 * `dispatch_dm_sends`, every minute, enqueues it for each account with a message due (a
 * message `spread` over coming days, one a failed run left behind, or one whose holder
 * crashed). One unfinished `send_dms` job per account (its unique key).
 */
import type { Queryable } from "../db/sql.ts";
import { enqueueJob } from "../jobs/jobs_queries.ts";
import { accountsWithDueMessages } from "./dm_send_queries.ts";

/** The job kind that sends one account's due messages. */
export const SEND_DMS_JOB_KIND = "send_dms";

/** How often the dispatcher looks for due messages: a spread message goes out at most this late. */
export const DISPATCH_DM_SENDS_EVERY_SECONDS = 60;

/** The payload of `send_dms`. */
export interface SendDmsPayload {
  accountId: string;
}

/** Accounts one dispatch enqueues at most (the rest wait a minute). */
const DISPATCH_BATCH = 1000;

/** Enqueues `send_dms` for the account at `runAt`, unless one is queued or running already. */
export async function enqueueDmSending(sql: Queryable, accountId: string, runAt: Date): Promise<void> {
  const payload: SendDmsPayload = { accountId };
  await enqueueJob(sql, { kind: SEND_DMS_JOB_KIND, payload, runAt, uniqueKey: `${SEND_DMS_JOB_KIND}:${accountId}` });
}

/** Enqueues `send_dms` for every account with a message due by `now`; answers how many accounts. */
export async function dispatchDmSends(sql: Queryable, now: Date): Promise<number> {
  const accounts = await accountsWithDueMessages(sql, now, DISPATCH_BATCH);
  for (const accountId of accounts) await enqueueDmSending(sql, accountId, now);
  return accounts.length;
}
