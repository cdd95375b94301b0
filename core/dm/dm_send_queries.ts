/**
 * SQL of the DM sender (core/dm/dm_sender.ts): the claim of one due message under the
 * publication lease (core/publishing/lease_queries.ts: the same columns and pieces the post
 * and article publishers use), and the outcomes, each written only while the caller still
 * holds the message.
 */
import type { Queryable } from "../db/sql.ts";
import type { Lease } from "../leases/lease.ts";
import { publicationLease } from "../publishing/lease_queries.ts";
import type { MessageRow } from "./dm_queries.ts";

/**
 * Messages of the account sent, or claimed for sending, in the rolling window ending at
 * `now` (spec DM limits: "rolling 24-hour bulk allowance"), and when the oldest of them
 * leaves it. A `sending` row counts from its claim (`updated_at`): it may have landed.
 */
export async function countSentInWindow(sql: Queryable, accountId: string, now: Date, windowMs: number): Promise<{ used: number; oldest: Date | null }> {
  const [row] = await sql<{ used: number; oldest: Date | null }[]>`
    select count(*)::int as used, min(at) as oldest from (
      select case when status = 'sent' then sent_at else updated_at end as at
      from dm_messages
      where account_id = ${accountId} and status in ('sent', 'sending')
    ) as placed
    where at > ${now}::timestamptz - ${windowMs}::int * interval '1 millisecond' and at <= ${now}`;
  return row;
}

/**
 * Claims the account's next message for `lease`: a pending one due by `now`, soonest
 * first, or a `sending` one whose holder's lease passed (a crash or a timeout left its
 * outcome unknown: `outcome_unknown` comes back true, and the caller asks the network before
 * sending it again). `fresh: false` claims only such left-behind rows (the rolling day is
 * full, but a message that may already have landed still needs settling). SKIP LOCKED: two
 * senders never wait on, or take, the same row.
 */
export async function claimMessage(sql: Queryable, claim: { accountId: string; now: Date; lease: Lease; fresh: boolean }): Promise<MessageRow | undefined> {
  const { accountId, now, lease } = claim;
  const [row] = await sql<MessageRow[]>`
    update dm_messages set status = 'sending', ${publicationLease.take(sql, lease)},
           outcome_unknown = outcome_unknown or status = 'sending', updated_at = ${now}
     where id = (
       select id from dm_messages
        where account_id = ${accountId}
          and ((${claim.fresh} and status = 'pending' and send_after <= ${now}) or (status = 'sending' and ${publicationLease.free(sql)}))
        order by (status = 'sending') desc, send_after, id
        limit 1
        for update skip locked)
    returning *`;
  return row;
}

/** Records the text about to be sent (tokens filled), while held; false when the claim was lost. */
export async function recordSendingText(sql: Queryable, held: { id: number; lease: Lease }, text: string): Promise<boolean> {
  const rows = await sql`update dm_messages set sent_text = ${text} where id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)} returning id`;
  return rows.length === 1;
}

/** Ends a held message `sent`; false when the claim was lost. */
export async function markMessageSent(sql: Queryable, held: { id: number; lease: Lease }, sent: { xDmId: string; at: Date }): Promise<boolean> {
  const rows = await sql`
    update dm_messages set status = 'sent', x_dm_id = ${sent.xDmId}, sent_at = ${sent.at}, outcome_unknown = false,
           reason = null, updated_at = ${sent.at}, ${publicationLease.drop(sql)}
     where id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)}
    returning id`;
  return rows.length === 1;
}

/**
 * Ends a held message `failed` with `reason`: it no longer counts against the month, so its
 * unit is back (docs/areas.md "DM campaigns and auto DM": a permanent refusal returns the unit).
 */
export async function markMessageFailed(sql: Queryable, held: { id: number; lease: Lease }, failure: { reason: string; at: Date }): Promise<boolean> {
  const rows = await sql`
    update dm_messages set status = 'failed', reason = ${failure.reason}, updated_at = ${failure.at}, ${publicationLease.drop(sql)}
     where id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)}
    returning id`;
  return rows.length === 1;
}

/**
 * Lets go of a held message after a failure worth retrying. `unknown: true` (the network
 * may have taken it: a timeout, an unexpected answer) leaves it `sending` with its outcome
 * unknown, so the next claim reconciles; otherwise (it surely did not land) it is `pending`
 * again, due at `retryAt`.
 */
export async function releaseMessage(
  sql: Queryable,
  held: { id: number; lease: Lease },
  release: { unknown: boolean; reason: string; retryAt: Date; attemptBack?: boolean },
): Promise<boolean> {
  // A wait for a rate window is not an attempt (dm_sender.ts: MAX_DM_ATTEMPTS).
  const attempts = release.attemptBack ? sql`publish_attempts = greatest(publish_attempts - 1, 0),` : sql``;
  const rows = release.unknown
    ? await sql`
        update dm_messages set outcome_unknown = true, reason = ${release.reason}, ${publicationLease.drop(sql)}
         where id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)} returning id`
    : await sql`
        update dm_messages set status = 'pending', outcome_unknown = false, reason = ${release.reason}, ${attempts}
               send_after = greatest(send_after, ${release.retryAt}), ${publicationLease.drop(sql)}
         where id = ${held.id} and ${publicationLease.heldBy(sql, held.lease)} returning id`;
  return rows.length === 1;
}

/** Accounts with a message due by `now` (pending) or left behind by a lost holder, at most `limit`. */
export async function accountsWithDueMessages(sql: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ account_id: string }[]>`
    select distinct account_id from dm_messages
     where (status = 'pending' and send_after <= ${now}) or (status = 'sending' and ${publicationLease.free(sql)})
     limit ${limit}`;
  return rows.map((row) => row.account_id);
}
