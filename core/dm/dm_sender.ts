/**
 * The DM sender (docs/areas.md "DM campaigns and auto DM"): sends an account's due messages through the
 * SocialNetwork port (`sendDm`), one at a time, within the plan's rolling 24-hour allowance,
 * with the publisher's exactly-once discipline (core/scheduling/publish_post.ts):
 *
 * - "Several processes never send the same message": each message is claimed under the
 *   shared publication lease (core/publishing/lease_queries.ts) with SKIP LOCKED, inside the
 *   account's DM lock, which also makes the allowance check and the claim one step.
 * - "Each message's outcome is committed before the next": the claim (`sending`) and the
 *   filled text commit before the network is asked; the answer commits (`sent` or `failed`)
 *   before the next claim.
 * - "An unknown outcome is reconciled with the network before any retry": a message found
 *   `sending` after its holder's lease passed (a crash, a timeout) is looked for among the
 *   account's DMs (`directMessages`: same recipient, same text, since it was queued) and only
 *   sent when it is not there; the send carries the message's token as well, which the
 *   simulated network honours.
 *
 * A permanent refusal (the person does not accept DMs, or is gone) ends the message
 * `failed` with the reason, which returns its monthly unit; losing the network
 * authorisation pauses the account (`reauth_required`) with its messages kept.
 */
import { settleDmRecorded } from "./dm_events.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import {
  NetworkAuthLostError,
  NetworkError,
  NetworkNotFoundError,
  NetworkRateLimitedError,
  NetworkRejectedError,
  NetworkTimeoutError,
  NetworkUnavailableError,
  NetworkUpstreamError,
} from "../network/network_errors.ts";
import type { NetworkDm } from "../network/network_records.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import { type Lease, newLease } from "../leases/lease.ts";
import { isPermanentFailure } from "../network/permanent_failure.ts";
import { lockDmAccount, type MessageRow, reauthRequiredAt, setReauthRequired } from "./dm_queries.ts";
import { claimMessage, countSentInWindow, markMessageFailed, markMessageSent, recordSendingText, releaseMessage } from "./dm_send_queries.ts";
import { dmAllowanceOf } from "./dm_limits.ts";
import { DAY_MS } from "../time/durations.ts";
import { type DmPerson, fillTokens, hasTokens } from "./dm_text.ts";
import { pageWalker } from "../network/page_walker.ts";

/** What sending needs: the pool (it commits message by message), the network, the clock. */
export interface DmSendDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
}

/** How one run behaves. */
export interface DmSendOptions {
  /** The claim's lease (default 120 s, the publisher's). */
  leaseSeconds?: number;
  /** Prefix of the holder (a job runner's, so its shutdown releases what it held). */
  holderPrefix?: string;
  /** Messages one run settles at most (default: until none is due). */
  maxMessages?: number;
}

/** Why a run stopped. */
export type DmRunStop =
  /** Nothing due now. */
  | "idle"
  /** The rolling 24-hour allowance is used; `nextAt` is when a unit comes back. */
  | "day_full"
  /** The network authorisation is lost (or was lately): the account waits. */
  | "reauth"
  /** The plan no longer includes DMs: messages wait. */
  | "not_in_plan"
  /** The network asked us to wait (`nextAt`), or `maxMessages` was reached. */
  | "later";

/** What a run did. */
export interface DmRunResult {
  sent: number;
  failed: number;
  /** Messages found already delivered by an earlier attempt (not sent again). */
  reconciled: number;
  stop: DmRunStop;
  nextAt?: Date;
}

/** The lease of a message being sent (the publisher's: longer than a slow network call). */
export const DM_LEASE_SECONDS = 120;

/** Attempts after which a message that keeps failing in a retryable way ends `failed`. */
export const MAX_DM_ATTEMPTS = 6;

/** After a lost authorisation, the account is tried again this much later (one message probes it). */
export const REAUTH_PAUSE_MS = 15 * 60_000;

/** Pages of the account's DMs read to reconcile an unknown outcome. */
const RECONCILE_PAGES = 3;

/** The idempotency token of a message: the same for every attempt. */
export function dmToken(messageId: number): string {
  return `tl-dm:${messageId}`;
}

/**
 * Sends the account's due messages one by one until none is due, the rolling day is full,
 * or the network says wait. A failure worth retrying is thrown after letting go of the
 * message (its job retries with backoff); a message whose outcome is unknown stays
 * `sending` for the next claim to reconcile.
 */
export async function sendDueMessages(deps: DmSendDeps, accountId: string, options: DmSendOptions = {}): Promise<DmRunResult> {
  const { sql } = deps;
  const result: DmRunResult = { sent: 0, failed: 0, reconciled: 0, stop: "idle" };
  const allowance = await dmAllowanceOf(sql, accountId);
  if (!allowance) return { ...result, stop: "not_in_plan" };
  const max = options.maxMessages ?? Number.POSITIVE_INFINITY;
  for (let settled = 0; settled < max; settled++) {
    const lease = newLease(options.leaseSeconds ?? DM_LEASE_SECONDS, options.holderPrefix);
    const claim = await claimNext(deps, accountId, allowance.dailyBulkMax, lease);
    if ("stop" in claim) return { ...result, stop: claim.stop, ...(claim.nextAt ? { nextAt: claim.nextAt } : {}) };
    const outcome = await sendOne(deps, claim.row, lease);
    if (outcome === "sent") result.sent++;
    else if (outcome === "reconciled") result.reconciled++;
    else if (outcome === "failed") result.failed++;
    else if (outcome === "reauth") return { ...result, stop: "reauth" };
    else if (typeof outcome === "object") return { ...result, stop: "later", nextAt: outcome.retryAt };
  }
  return { ...result, stop: "later" };
}

/** Claims the next message within the allowance, or says why there is none. */
async function claimNext(
  deps: DmSendDeps,
  accountId: string,
  dailyMax: number,
  lease: Lease,
): Promise<{ row: MessageRow } | { stop: DmRunStop; nextAt?: Date }> {
  const now = new Date(deps.clock.now());
  return deps.sql.begin(async (tx) => {
    await lockDmAccount(tx, accountId);
    const lost = await reauthRequiredAt(tx, accountId);
    if (lost && now.getTime() - lost.getTime() < REAUTH_PAUSE_MS) return { stop: "reauth" as const };
    const window = await countSentInWindow(tx, accountId, now, DAY_MS);
    // A full day still settles messages left `sending` (they count already).
    const fresh = window.used < dailyMax;
    const row = await claimMessage(tx, { accountId, now, lease, fresh });
    if (row) return { row };
    if (fresh) return { stop: "idle" as const };
    return { stop: "day_full" as const, nextAt: new Date((window.oldest?.getTime() ?? now.getTime()) + DAY_MS) };
  });
}

/** What sending one message came to. */
type SendOutcome = "sent" | "reconciled" | "failed" | "lost" | "reauth" | { retryAt: Date };

/** Sends one claimed message and commits its outcome. */
async function sendOne(deps: DmSendDeps, row: MessageRow, lease: Lease): Promise<SendOutcome> {
  const { sql, network, clock } = deps;
  const held = { id: row.id, lease };
  try {
    const text = row.sent_text ?? fillTokens(row.message, await personOf(network, row));
    if (row.sent_text === null && !(await recordSendingText(sql, held, text))) return "lost";
    // Unknown outcome: did it land? (spec: reconcile with the network before retrying.)
    const landed = row.outcome_unknown ? await findLanded(network, row, text) : undefined;
    const dm = landed ?? (await network.sendDm({ senderId: row.account_id, recipientId: row.recipient_id, text, token: dmToken(row.id) }));
    const at = new Date(clock.now());
    if (!(await settleDmRecorded(sql, row.id, at, (tx) => markMessageSent(tx, held, { xDmId: dm.id, at })))) return "lost";
    if (row.publish_attempts > 1 || landed) await clearReauth(deps, row.account_id);
    return landed ? "reconciled" : "sent";
  } catch (error) {
    return settleFailure(deps, row, lease, error);
  }
}

/** Commits what a failed send means, or rethrows for the job's retry. */
async function settleFailure(deps: DmSendDeps, row: MessageRow, lease: Lease, error: unknown): Promise<SendOutcome> {
  const { sql, clock } = deps;
  const held = { id: row.id, lease };
  const now = new Date(clock.now());
  const message = error instanceof Error ? error.message : String(error);
  if (isAuthLost(error)) {
    // The network refused our credentials: nothing was sent. The account waits for a reconnect.
    await releaseMessage(sql, held, { unknown: false, reason: `Waiting for the account to reconnect to X: ${message}`, retryAt: now });
    await setReauthRequired(sql, row.account_id, now);
    return "reauth";
  }
  if (isPermanentFailure(error)) {
    const reason =
      error instanceof NetworkRejectedError && error.reason === "dm_closed"
        ? `The recipient does not accept DMs: ${message}`
        : `X refused the message: ${message}`;
    return (await settleDmRecorded(sql, row.id, now, (tx) => markMessageFailed(tx, held, { reason, at: now }))) ? "failed" : "lost";
  }
  if (error instanceof NetworkRateLimitedError) {
    // X's window (its 429, or one known used up: 15 DMs per 15 minutes per user) is waited
    // for, not failed: nothing was sent, and the attempt is given back (docs/x.md "X's rate limits").
    const retryAt = new Date(now.getTime() + error.retryAfter * 1000);
    await releaseMessage(sql, held, { unknown: false, reason: `X rate limit: waiting until ${retryAt.toISOString()}`, retryAt, attemptBack: true });
    return { retryAt };
  }
  if (row.publish_attempts >= MAX_DM_ATTEMPTS && !(error instanceof NetworkTimeoutError || error instanceof NetworkUpstreamError)) {
    const reason = `X could not take the message after ${row.publish_attempts} attempts: ${error instanceof NetworkError ? message : "internal error"}`;
    return (await settleDmRecorded(sql, row.id, now, (tx) => markMessageFailed(tx, held, { reason, at: now }))) ? "failed" : "lost";
  }
  // Unreachable: it did not land. Timed out, an unexpected answer, or our own failure: it may have.
  const unknown = !(error instanceof NetworkUnavailableError);
  await releaseMessage(sql, held, { unknown, reason: `Retrying: ${error instanceof NetworkError ? message : "internal error"}`, retryAt: now }).catch(() => {});
  throw error;
}

/** The network refused the account's credentials (X: HTTP 401, or no working user-context token for it). */
export function isAuthLost(error: unknown): boolean {
  if (error instanceof NetworkUpstreamError) return error.status === 401;
  return error instanceof NetworkAuthLostError;
}

/** The DM to the recipient with `text` sent since the message was queued, when it landed. */
async function findLanded(network: SocialNetwork, row: MessageRow, text: string): Promise<NetworkDm | undefined> {
  const since = row.created_at.getTime() - 60_000;
  let landed: NetworkDm | undefined;
  const readPage = (cursor: string | undefined) => network.directMessages(row.account_id, { limit: 100, ...(cursor ? { cursor } : {}) });
  await pageWalker(RECONCILE_PAGES).walkPages("direct messages", readPage, undefined, (dms) => {
    landed = dms.items.find((dm) => dm.senderId === row.account_id && dm.recipientId === row.recipient_id && dm.text === text);
    const oldest = dms.items.at(-1);
    return !landed && !(oldest && Date.parse(oldest.createdAt) < since);
  });
  return landed;
}

/** Who the tokens name: the row's name and handle, or the network's profile when the row lacks them. */
async function personOf(network: SocialNetwork, row: MessageRow): Promise<DmPerson> {
  if (!hasTokens(row.message) || (row.name && row.handle)) return { name: row.name, handle: row.handle };
  try {
    const user = await network.userById(row.recipient_id);
    return { name: row.name ?? user.name, handle: row.handle ?? user.username };
  } catch (error) {
    if (error instanceof NetworkNotFoundError) return { name: row.name, handle: row.handle };
    throw error;
  }
}

async function clearReauth(deps: DmSendDeps, accountId: string): Promise<void> {
  if (await reauthRequiredAt(deps.sql, accountId)) await setReauthRequired(deps.sql, accountId, null);
}
