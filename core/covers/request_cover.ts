/**
 * `POST /v1/articles/{id}/cover` (spec: Articles, "AI cover from the title, attached by
 * default, `attach: false` to skip; takes 60 to 100 seconds"): checks the article and the
 * style, records a queued generation and enqueues its job, then waits for the cover and
 * answers it `200` (await_cover.ts), or, with `Prefer: respond-async`, answers `202` at once.
 * The 25 credits were charged by the credit step before this runs (trpc.ts
 * `chargesCredits`) and are refunded by it when this refuses before the job is enqueued;
 * from then on the job settles them (kept when done or timed out, refunded on failure), so
 * a `504` keeps them and the `202` carries no `X-Credits-Charged` (spec Credit headers).
 */
import type { KeyContext } from "../context.ts";
import { ApiError, type ErrorExtra } from "../errors.ts";
import { isUniqueViolation } from "../db/pg_errors.ts";
import { reachableArticle } from "../articles/article_access.ts";
import { articleById } from "../articles/articles_queries.ts";
import { newObjectKey } from "../media/create_upload.ts";
import { requestBaseUrl } from "../media/media_urls.ts";
import { COVER_CREDITS, enqueueCoverJob } from "./cover_job.ts";
import { coverPrompt } from "./cover_prompt.ts";
import { assertCoverCaps, coverCapsOf } from "./cover_caps.ts";
import { activeGenerationOf, coverStyleFor, insertGeneration, type CoverGenerationRow } from "./cover_queries.ts";
import type { CoverGeneration, CoverRequestInput } from "./cover_schema.ts";
import { generationView } from "./cover_view.ts";
import { awaitCover, COVER_WAIT_MS, prefersAsync } from "./await_cover.ts";

/** Queues a cover for the article; answers it done (`200`), or queued (`202`) when the client prefers `respond-async`. */
export async function requestCover(ctx: KeyContext, input: CoverRequestInput): Promise<{ data: CoverGeneration }> {
  const { sql, media } = ctx.services;
  const credits = ctx.credits;
  if (!credits) throw new Error("requestCover runs behind chargesCredits (meta.credits)");
  // Spec precedent (POST /v1/media): storage that is not configured answers 503 media_not_configured.
  if (!media)
    throw new ApiError("media_not_configured", "Media storage is not configured on this server (MEDIA_STORE is none), so a cover has nowhere to be stored");
  const articleId = Number(input.id);
  // Outside the transaction: embedded PGlite has one connection (article_access.ts).
  const { row: article, access } = await reachableArticle(ctx, sql, articleId, { accountId: input.account_id, write: true });
  assertCoverable(article.title, article.status, input);
  let styleText = input.style_text;
  let styleId: number | null = null;
  if (input.style_id !== undefined) {
    styleId = Number(input.style_id);
    const style = await coverStyleFor(sql, styleId, access.workspaceId);
    if (!style) throw new ApiError("cover_style_not_found", `Cannot find cover style "${input.style_id}"`);
    styleText = style.style_text;
  }
  const createdAt = new Date(ctx.services.clock.now());
  const baseUrl = requestBaseUrl(ctx);
  let generation: CoverGenerationRow;
  try {
    generation = await sql.begin(async (tx) => {
      // The article row lock orders concurrent requests; the partial unique index backs it.
      const locked = await articleById(tx, articleId, { forUpdate: true });
      if (!locked) throw new ApiError("not_found", `Cannot find article "${input.id}"`);
      assertCoverable(locked.title, locked.status, input);
      const active = await activeGenerationOf(tx, articleId);
      if (active) throw inProgress(input.id, active);
      // Refused here, the credit step refunds the charge (trpc.ts chargesCredits).
      await assertCoverCaps(tx, credits.owner.ownerId, coverCapsOf(ctx.principal.plan.id), createdAt.getTime());
      const row = await insertGeneration(tx, {
        article_id: articleId,
        account_id: locked.account_id,
        workspace_id: access.workspaceId,
        attach: input.attach,
        style_id: styleId,
        title: locked.title.trim(),
        prompt: coverPrompt(locked.title, styleText),
        base_url: baseUrl,
        credit_owner_id: credits.owner.ownerId,
        credit_reference: credits.reference,
        credits_reserved: COVER_CREDITS,
        // Chosen now, so every attempt of the job writes the same object (no orphans).
        object_key: newObjectKey("png"),
        created_at: createdAt,
      });
      await enqueueCoverJob(tx, row.id);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "cover_generations_one_active")) {
      const active = await activeGenerationOf(sql, articleId);
      throw inProgress(input.id, active);
    }
    throw error;
  }
  ctx.reply.jobSettlesCredits = true;
  if (prefersAsync(ctx.transport.headers.get("prefer"))) {
    ctx.reply.status = 202;
    ctx.responseHeaders.set("Preference-Applied", "respond-async");
    return { data: generationView(generation) };
  }
  const done = await awaitCover(sql, generation.id, ctx.services.settings.coverWaitMs ?? COVER_WAIT_MS, input.id);
  return { data: generationView(done) };
}

/** The title and state rules of a cover request. */
function assertCoverable(title: string, status: string, input: CoverRequestInput): void {
  // Supplement (cover): "no title `400 article_title_required`"; the cover is made from it.
  if (!title.trim()) throw new ApiError("article_title_required", `Article "${input.id}" has no title; a cover is generated from the title`);
  // Spec (States, Article): a published article refuses edits with `article_not_editable`;
  // attaching a cover is an edit, generating one to keep (`attach: false`) is not.
  if (input.attach && (status === "published" || status === "publishing")) {
    throw new ApiError("article_not_editable", `Article "${input.id}" is ${status}; its cover cannot change (send "attach": false to only generate an image)`);
  }
}

/** Supplement: one generation at a time per article, `409 cover_gen_in_progress`. */
function inProgress(articleId: string, active: CoverGenerationRow | undefined): ApiError {
  const extra: ErrorExtra = active ? { generation_id: String(active.id), generation_status: active.status } : {};
  return new ApiError(
    "cover_gen_in_progress",
    `A cover for article "${articleId}" is already being generated; poll GET /v1/articles/${articleId}/cover`,
    extra,
  );
}
