/**
 * The `generate_article_cover` job (docs/areas.md "Articles and Workers"): generates the image of one cover request
 * through the Model port, stores it in the media store as an upload of the article's
 * workspace, attaches it unless `attach: false`, and settles the credits the request
 * charged (spec AI credits: "cover generation: 25 credits kept even when it times out
 * with 504; refunded in full on outright failure").
 *
 * Exactly once where it matters: every ending (`done`, `failed`, `timed_out`) is one
 * transaction that locks the generation and acts only while it is `running`, so the
 * credits are settled, and the cover attached, at most once however often the job runs.
 * The object key was chosen by the request, so a retry overwrites the same object.
 * Retries are bounded (`COVER_MAX_ATTEMPTS`) and only for failures that may pass (an
 * unreachable or rate-limited model, the store, the database); the last attempt ends
 * `failed` and refunds instead of throwing.
 */
import { recordCoverEvent } from "./cover_events.ts";
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import type { MediaStore } from "../ports/media_store.ts";
import type { ImageResult, Model } from "../model/model.ts";
import { ModelTimeoutError, ModelUnavailableError } from "../model/model_errors.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { ApiError } from "../errors.ts";
import { planById } from "../plans/plans.ts";
import { refundCreditsIn } from "../credits/credits.ts";
import { insertUpload, markAttached, markUploaded } from "../media/media_queries.ts";
import { articleById } from "../articles/articles_queries.ts";
import type { CoverJobPayload } from "./cover_job.ts";
import {
  creditOwnerRow,
  lockGeneration,
  markGenerationDone,
  markGenerationEnded,
  setArticleCover,
  startGeneration,
  type CoverGenerationRow,
} from "./cover_queries.ts";

/** What the job uses. */
export interface CoverJobDeps {
  sql: Sql;
  clock: Clock;
  model?: Model;
  media?: MediaStore;
}

/** How a generation ends when it does not end `done`. */
interface Ending {
  status: "failed" | "timed_out";
  code: string;
  message: string;
}

/** Runs one attempt of the job for `payload.generationId`. */
export async function generateArticleCover(deps: CoverJobDeps, payload: CoverJobPayload, job: Pick<JobRow, "attempts" | "max_attempts">): Promise<void> {
  const finalAttempt = job.attempts >= job.max_attempts;
  const generation = await startGeneration(deps.sql, payload.generationId, new Date(deps.clock.now()));
  // Ended already: this run repeats one whose settlement committed.
  if (!generation) return;
  const { model, media } = deps;
  if (!model || !media) {
    const missing = model ? "media store" : "model";
    return end(deps, generation, {
      status: "failed",
      code: model ? "media_not_configured" : "upstream_unavailable",
      message: `The job runner has no ${missing}; the cover was not generated`,
    });
  }
  if (generation.article_id === null) {
    return end(deps, generation, { status: "failed", code: "not_found", message: "The article was deleted before its cover was generated" });
  }

  let image: ImageResult;
  try {
    image = await model.generateImage({ prompt: generation.prompt, title: generation.title });
  } catch (error) {
    if (error instanceof ModelTimeoutError) {
      // Spec AI credits: a cover that times out keeps its credits and answers 504.
      return end(deps, generation, { status: "timed_out", code: "upstream_timeout", message: error.message });
    }
    if (mayPass(error) && !finalAttempt) throw error;
    const answer = modelApiError(error) ?? new ApiError("upstream_error", "The image model failed");
    return end(deps, generation, { status: "failed", code: answer.code, message: answer.message });
  }

  try {
    await media.put(generation.object_key!, image.bytes, image.mimeType);
    await finishDone(deps, media, generation, image);
  } catch (error) {
    if (!finalAttempt) throw error;
    return end(deps, generation, { status: "failed", code: "upstream_error", message: `The cover could not be stored: ${(error as Error)?.message ?? error}` });
  }
}

/** A model failure worth another attempt: the provider was unreachable or rate limited. */
function mayPass(error: unknown): boolean {
  if (error instanceof ModelUnavailableError) return error.reason === "unreachable" || error.reason === "rate_limited";
  // Not a model error at all (a bug, a dropped connection): retried, within the bound.
  return modelApiError(error) === undefined;
}

/**
 * Records the stored image as an upload of the workspace, attaches it when asked (the
 * article's cover and the generation's `done` in one commit), keeps the credits.
 */
async function finishDone(deps: CoverJobDeps, media: MediaStore, generation: CoverGenerationRow, image: ImageResult): Promise<void> {
  const at = new Date(deps.clock.now());
  const objectKey = generation.object_key!;
  const url = media.objectUrl(objectKey, generation.base_url);
  await deps.sql.begin(async (tx) => {
    const row = await lockGeneration(tx, generation.id);
    if (row?.status !== "running") return;
    // Not counted against the key's 100 uploads a day (no key): the cover has its own price.
    await insertUpload(tx, {
      objectKey,
      workspaceId: row.workspace_id,
      accountId: row.account_id,
      apiKeyId: null,
      filename: `cover-${row.article_id ?? row.id}.png`,
      fileType: image.mimeType,
      size: image.bytes.length,
      expiresAt: at,
      createdAt: at,
    });
    await markUploaded(tx, objectKey, { size: image.bytes.length, detectedType: image.mimeType, at });
    let attached = false;
    if (row.attach && row.article_id !== null) {
      const article = await articleById(tx, row.article_id, { forUpdate: true });
      // Published since the request: its cover no longer changes (spec States, Article); the image stays an upload.
      if (article && article.status !== "published" && article.status !== "publishing") {
        await setArticleCover(tx, article.id, { objectKey, url, at });
        await markAttached(tx, [objectKey], at);
        attached = true;
      }
    }
    await markGenerationDone(tx, row.id, { imageUrl: url, attached, model: image.model, creditsCharged: row.credits_reserved, at });
    await recordCoverEvent(tx, "cover.done", row.id, at);
  });
}

/** Ends the generation `failed` (refunding in the same commit) or `timed_out` (keeping the credits). */
async function end(deps: CoverJobDeps, generation: CoverGenerationRow, ending: Ending): Promise<void> {
  const at = new Date(deps.clock.now());
  await deps.sql.begin(async (tx) => {
    const row = await lockGeneration(tx, generation.id);
    if (row?.status !== "running") return;
    let charged = row.credits_reserved;
    if (ending.status === "failed") {
      const owner = await creditOwnerRow(tx, row.credit_owner_id);
      if (owner) {
        await refundCreditsIn(
          tx,
          { ownerId: row.credit_owner_id, plan: planById(owner.plan), billingAnchor: owner.billing_anchor },
          { reference: row.credit_reference, now: at },
        );
      }
      charged = 0;
    }
    await markGenerationEnded(tx, row.id, { status: ending.status, errorCode: ending.code, errorMessage: ending.message, creditsCharged: charged, at });
    await recordCoverEvent(tx, "cover.failed", row.id, at);
  });
}
