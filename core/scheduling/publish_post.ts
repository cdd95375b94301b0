/**
 * The publisher (docs/areas.md "Scheduling"): publishes a due scheduled post through the SocialNetwork port,
 * its parts in order as a thread (each part answers the previous one), media attached,
 * and ends it `sent` with the network's ids or `error` with a readable reason.
 *
 * "It must never publish a part twice": before the network is asked for part `i`, a
 * `publishing` row with the part's token is committed; once it answered, the row becomes
 * `published` with the id. A later attempt reuses published parts, and for a part left
 * `publishing` (a crash or timeout hid the answer) asks the network by token whether it
 * landed before publishing it. "Several server processes never publish the same post":
 * a call claims the post for a lease (the shared one, core/publishing/; the claim in
 * publish_queries.ts) and every write re-checks it.
 *
 * The job (`publish_scheduled_post`) and the publish-now request path run this same code,
 * so either reconciles what the other left behind.
 */
import { keepStatisticsFresh } from "../db/fresh_statistics.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { NetworkError, NetworkRateLimitedError } from "../network/network_errors.ts";
import { JobDeferral } from "../jobs/job_deferral.ts";
import type { NetworkPost } from "../network/network_records.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { MediaStore } from "../ports/media_store.ts";
import { releaseLease } from "../publishing/lease_queries.ts";
import { failHeldPublication, isFinalAttempt } from "../publishing/publication_lease.ts";
import { newLease, retryWhileBusy } from "../leases/lease.ts";
import { isPermanentFailure } from "../network/permanent_failure.ts";
import { failureReason } from "./publish_failure.ts";
import {
  claimPost,
  heldPost,
  markPostFailed,
  postPublishState,
  recordPartPublished,
  recordPartPublishing,
  type ClaimedPostRow,
  type Holder,
  type PublishPartRow,
} from "./publish_queries.ts";
import { armFollowUps } from "./post_follow_ups.ts";
import { recordPostEvent } from "./post_events.ts";
import { finishSent } from "./finish_sent.ts";
import { carriedParts } from "./carried_parts.ts";
import { pausesPublishing, reauthDeferral } from "./publish_pause.ts";
import { partMediaKeys } from "./x_media_ids.ts";
import type { PublishJobPayload } from "./schedule_publication.ts";

/** What publishing needs: the pool (it commits part by part, so never a transaction), the network, the clock, and the media store (uploads to X). */
export interface PublishDeps {
  sql: Sql;
  network: SocialNetwork;
  clock: Clock;
  media?: MediaStore;
}

/** How one publish call behaves. */
export interface PublishOptions {
  /** The last attempt: a failure that would be retried marks the post `error` instead (bounded retries). */
  finalAttempt?: boolean;
  /** The claim's lease, renewed at every part (default 120 s). */
  leaseSeconds?: number;
  /**
   * Prefix of the claim's holder (default none: a random holder). The job passes its
   * runner's id, so a server shutting down can release the claims of the jobs it
   * interrupted (`releaseLeasesOf`) and another process retries them at once.
   */
  holderPrefix?: string;
}

/** What a publish call found or did. */
export type PublishResult =
  /** The post is `sent` (`byThisCall` false: an earlier call had sent it; `scheduledFor` only when this call sent it). */
  | { outcome: "sent"; xPostIds: string[]; byThisCall: boolean; scheduledFor?: Date }
  /** The post is `error`, now or before, with its reason. */
  | { outcome: "failed"; error: string }
  /** Another call holds the post (its lease runs); it will finish or its lease will pass. */
  | { outcome: "busy" }
  /** Scheduled later than the clock's now. */
  | { outcome: "not_due"; scheduledFor: Date }
  /** Nothing to do: the post is gone, a draft, or rescheduled since (another version). */
  | { outcome: "skipped"; reason: "missing" | "draft" | "stale" };

/**
 * The lease on a post: longer than the slowest part (an X API publish reconciles, posts
 * and reads back, each call bounded by X_API_TIMEOUT_MS), and no longer than the job
 * lease (300 s), so a crashed holder never delays the job's own retry.
 */
export const PUBLISH_LEASE_SECONDS = 120;

/** The idempotency token of a part: the same for every attempt at one publish version. */
export function partToken(postId: number, version: number, index: number): string {
  return `tl:${postId}:${version}:${index}`;
}

/**
 * Publishes post `payload.postId` at `payload.version` if it is still that version,
 * scheduled and due. A failure worth retrying (network unreachable, timed out, rate
 * limited; a database error) is thrown after letting go of the claim, unless
 * `finalAttempt`; a permanent one (or any on the final attempt) ends the post `error`
 * and refunds its quota unit in one transaction.
 */
export async function publishScheduledPost(deps: PublishDeps, payload: PublishJobPayload, options: PublishOptions = {}): Promise<PublishResult> {
  const { sql, clock } = deps;
  const claim: Holder = { postId: payload.postId, version: payload.version, ...newLease(options.leaseSeconds ?? PUBLISH_LEASE_SECONDS, options.holderPrefix) };
  const post = await claimPost(sql, { ...claim, now: new Date(clock.now()), firstToken: partToken(claim.postId, claim.version, 0) });
  if (!post) return unclaimedResult(deps, payload);
  // A burst of due posts fills publish_parts within seconds: its later statements must not be
  // planned on the statistics of an empty table (a scan of every part for each batch).
  if (post.first_recorded) await keepStatisticsFresh(sql, "publish_parts", 1);
  const recorded = new Map(post.recorded.map((row) => [row.part_index, row]));
  const ids: string[] = [];
  let sent = false;
  try {
    // Parts an earlier, failed publication already put on X (unchanged since) are not posted again.
    const carried = post.earlier.length > 0 ? await carriedParts(deps.network, post) : [];
    for (let index = 0; index < post.parts.length; index++) {
      const outcome = await publishPart(deps, claim, post, { index, recorded: recorded.get(index), earlier: ids, carried: carried[index] });
      if (outcome === undefined) return unclaimedResult(deps, payload);
      ids.push(outcome.id);
      sent = outcome.sent;
    }
  } catch (error) {
    // A used-up rate window is waited for, even on the last attempt: it is not a failure of the post.
    // So is an account waiting to be connected again (publish_pause.ts).
    const waiting = error instanceof NetworkRateLimitedError || pausesPublishing(error);
    if (!waiting && (isPermanentFailure(error) || options.finalAttempt)) {
      return fail(deps, claim, failureReason(error, { index: ids.length, count: post.parts.length, attempts: post.publish_attempts }));
    }
    // A failed release only makes the retry wait for the lease.
    await releaseLease(sql, { table: "scheduled_posts", id: claim.postId, lease: claim }).catch(() => {});
    throw error;
  }
  // Sent with the last part's record, unless that part was already published by an earlier attempt.
  if (!sent && !(await finishSent(sql, { claim, xPostIds: ids, at: new Date(clock.now()) }))) return unclaimedResult(deps, payload);
  return { outcome: "sent", xPostIds: ids, byThisCall: true, scheduledFor: post.scheduled_for };
}

/**
 * Publishes part `index` and answers its network id (and whether its record also marked
 * the post sent: the last part), or undefined when the claim was lost (the post changed,
 * or another holder took over after this one's lease passed).
 */
async function publishPart(
  deps: PublishDeps,
  claim: Holder,
  post: ClaimedPostRow,
  step: { index: number; recorded: PublishPartRow | undefined; earlier: readonly string[]; carried: string | undefined },
): Promise<{ id: string; sent: boolean } | undefined> {
  const { sql, network, clock } = deps;
  const { index, recorded, earlier } = step;
  // Each part answers the previous one (spec: "parts in order as a thread").
  const replyToId = earlier.at(-1);
  if (recorded?.state === "published" && recorded.x_post_id) return { id: recorded.x_post_id, sent: false };
  const part = post.parts[index];
  const token = recorded?.token ?? partToken(claim.postId, claim.version, index);
  // A carried part is already on X: it is recorded as this version's, never posted again.
  let landed: Pick<NetworkPost, "id"> | undefined = step.carried === undefined ? undefined : { id: step.carried };
  if (recorded) {
    // `publishing` without an answer: a crash or a timeout hid whether it landed. Ask the
    // network before publishing again (spec: "reconcile with the network before retrying
    // after an unknown outcome"); publishing with the same token is idempotent as well.
    landed ??= await network.findPublished({ authorId: post.account_id, token });
  } else if (!(index === 0 && post.first_recorded) && !(await recordPartPublishing(sql, claim, { index, token, at: new Date(clock.now()), content: part }))) {
    // (Part 0 of a fresh publication was recorded `publishing` by the claim itself.)
    return undefined;
  }
  // On X each file is uploaded first and attached by its media id (x_media_ids.ts).
  const mediaKeys = landed
    ? []
    : await partMediaKeys(deps, { postId: claim.postId, version: claim.version, partIndex: index, accountId: post.account_id }, part.media ?? []);
  const published =
    landed ??
    (await network.publishPost({
      authorId: post.account_id,
      text: part.text,
      ...(mediaKeys.length > 0 ? { mediaKeys } : {}),
      ...(replyToId === undefined ? {} : { replyToId }),
      token,
    }));
  const now = new Date(clock.now());
  const last = index === post.parts.length - 1;
  // The last part's record marks the post sent, with its `post.sent` event and follow-ups in the same transaction.
  const held = last
    ? await finishSent(sql, { claim, part: { index, xPostId: published.id }, xPostIds: [...earlier, published.id], at: now })
    : await recordPartPublished(sql, claim, { index, xPostId: published.id, at: now });
  return held ? { id: published.id, sent: last } : undefined;
}

/** Ends the post `error` with `reason` and gives back its quota unit, in one transaction. */
async function fail(deps: PublishDeps, claim: Holder, reason: string): Promise<PublishResult> {
  const at = new Date(deps.clock.now());
  // Spec (States, Scheduled post): a failed publication refunds exactly the deducted unit.
  const failed = await failHeldPublication(deps.sql, heldPost(deps.sql, claim), {
    markFailed: async (tx) => {
      await markPostFailed(tx, claim.postId, { reason, at });
      await recordPostEvent(tx, "post.failed", claim.postId, at);
    },
    quotaSubject: `post:${claim.postId}`,
    refundReason: "publish failed",
  });
  return failed ? { outcome: "failed", error: reason } : unclaimedResult(deps, claim);
}

/** Why a post was not (or no longer) this call's to publish. */
async function unclaimedResult(deps: PublishDeps, payload: PublishJobPayload): Promise<PublishResult> {
  const state = await postPublishState(deps.sql, payload.postId);
  if (!state) return { outcome: "skipped", reason: "missing" };
  if (state.publish_version !== payload.version) return { outcome: "skipped", reason: "stale" };
  if (state.status === "sent") {
    // An earlier attempt sent it and may have died before arming the follow-ups.
    await armFollowUps(deps.sql, [payload.postId]);
    return { outcome: "sent", xPostIds: state.x_post_ids ?? [], byThisCall: false };
  }
  if (state.status === "error") return { outcome: "failed", error: state.error ?? "Publishing failed" };
  if (state.status === "draft") return { outcome: "skipped", reason: "draft" };
  if (!state.claimed && state.scheduled_for && state.scheduled_for.getTime() > deps.clock.now()) {
    return { outcome: "not_due", scheduledFor: state.scheduled_for };
  }
  // Claimed by another holder, or its lease ended a moment ago: either way, try again later.
  return { outcome: "busy" };
}

/**
 * The `publish_scheduled_post` job: publishes the post; its final attempt (`max_attempts`)
 * gives up with `error` instead of throwing. A post another holder is publishing, or not
 * due by this process's clock, is retried with the job's backoff. A used-up rate window
 * (X's 429, or one the network knows is used up) defers the job to the window's reset
 * without spending an attempt (docs/x.md "X's rate limits"); the part left `publishing` is
 * reconciled by its token before anything is sent again. So does an account that must be
 * connected again (publish_pause.ts). Answers what publishing did.
 */
export async function publishFromJob(
  deps: PublishDeps,
  payload: PublishJobPayload,
  job: Pick<JobRow, "attempts" | "max_attempts">,
  options: { leaseSeconds?: number; holderPrefix?: string } = {},
): Promise<PublishResult> {
  const finalAttempt = isFinalAttempt(job);
  let result: PublishResult;
  try {
    result = await publishScheduledPost(deps, payload, { ...options, finalAttempt });
  } catch (error) {
    if (pausesPublishing(error)) throw reauthDeferral(payload.postId, error, deps.clock.now());
    if (!(error instanceof NetworkRateLimitedError)) throw error;
    const retryAt = new Date(deps.clock.now() + error.retryAfter * 1000);
    throw new JobDeferral(retryAt, `Scheduled post "${payload.postId}" waits for the network's rate window until ${retryAt.toISOString()}`, { cause: error });
  }
  if (finalAttempt) return result;
  if (result.outcome === "busy") throw new Error(`Scheduled post "${payload.postId}" is being published by another process; retrying`);
  if (result.outcome === "not_due") throw new Error(`Scheduled post "${payload.postId}" is not due before ${result.scheduledFor.toISOString()}; retrying`);
  return result;
}

/** What publishing now answers: a publish result, `retry` when the network failed in a way worth retrying, `reauth_required` when the account must be connected again. */
export type PublishNowResult = PublishResult | { outcome: "retry" | "reauth_required"; error: string };

/** How long `publishNow` waits for another holder by default, and how often it looks. */
const PUBLISH_NOW_WAIT_MS = 20_000;
const PUBLISH_NOW_POLL_MS = 100;

/**
 * Publishes a post inline, for the request path (publish-now): the job's code path, so a
 * retry after a crash reconciles part by part. Never throws a network failure: a permanent
 * one answers `failed` (post `error`, quota refunded), a transient one `retry` (the post
 * stays `scheduled`; its fallback job or a retry of the request finishes it). While
 * another holder publishes the post it waits up to `waitMs` and answers what that holder
 * achieved (`busy` when it is still at work). Database errors are thrown.
 *
 * @example
 * const result = await publishNow({ sql, network, clock }, { postId, version });
 * if (result.outcome === "sent") console.log(result.xPostIds);
 */
export async function publishNow(deps: PublishDeps, payload: PublishJobPayload, options: { waitMs?: number } = {}): Promise<PublishNowResult> {
  const attempt = async (): Promise<PublishNowResult> => {
    try {
      return await publishScheduledPost(deps, payload);
    } catch (error) {
      if (pausesPublishing(error)) return { outcome: "reauth_required", error: error.message };
      if (error instanceof NetworkError) return { outcome: "retry", error: error.message };
      throw error;
    }
  };
  return retryWhileBusy(attempt, (result) => result.outcome === "busy", { waitMs: options.waitMs ?? PUBLISH_NOW_WAIT_MS, pollMs: PUBLISH_NOW_POLL_MS });
}
