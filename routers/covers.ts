/**
 * Article covers: `POST /v1/articles/{id}/cover` (202; a job generates the image),
 * `GET /v1/cover-styles` (supplement section 5) and the tRPC query `covers.status` (poll a cover).
 */
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { coverGeneration, coverRequestInput, coverStatus, coverStatusInput, coverStyle, listCoverStylesInput } from "../core/covers/cover_schema.ts";
import { COVER_CREDITS } from "../core/covers/cover_job.ts";
import { requestCover } from "../core/covers/request_cover.ts";
import { listCoverStyles, readCoverStatus } from "../core/covers/cover_reads.ts";

/** The cover procedures (tag Articles). */
export const coversRouter = router({
  request: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/articles/{id}/cover",
        tags: ["Articles"],
        summary: "Generate an AI cover from the article's title",
        description:
          "A background job makes the image (60 to 100 s on a real image model, a fraction of a second on the local engine, which " +
          "sets the title on a generated background), stores it as a media upload of the workspace and, unless `attach: false`, makes " +
          "it the article's cover. By default the request waits for it and answers `200` with the finished generation (`cover.url`) " +
          "and `X-Credits-Charged: 25`; past the wait (`COVER_WAIT_MS`, default 120 s) or when the model times out it answers " +
          "`504 upstream_timeout` naming `generation_id` and keeps the credits (the generation goes on; poll `GET /v1/articles/{id}`), " +
          "and a generation that fails answers its code (`503 upstream_unavailable`, `502 upstream_error`) with the credits refunded. " +
          "`Prefer: respond-async` (RFC 7240) answers `202` at once with the queued generation and `Preference-Applied: " +
          "respond-async`, without `X-Credits-Charged`: poll `GET /v1/articles/{id}` until `cover` is set (or `cover_generation.status` " +
          "is `failed` or `timed_out`). 25 credits, charged now and settled by the job: kept when done or timed out, refunded in full " +
          "on failure. One generation per article at a time. Style: `style_id` (from `GET /v1/cover-styles`) or `style_text`, not " +
          "both. Cover caps per plan, per UTC day and UTC calendar month (trial 2/5, basic 5/30, pro 10/100, advanced 25/300, ultra " +
          "50/1,000, enterprise 1,000/20,000; failed generations do not count): over a cap `429 ai_action_limited` with `scope: " +
          "account`, `cap` " +
          "(`day` or `month`), `remaining_day`, `remaining_month`, `retry_after`, `reset_at` and `Retry-After`, and nothing charged.",
      },
      alsoAnswers: [202],
      respondAsync: true,
      idempotent: true,
      credits: { flat: COVER_CREDITS },
      errors: [
        "not_found",
        "upstream_timeout",
        "upstream_unavailable",
        "upstream_error",
        "article_title_required",
        "article_not_editable",
        "cover_style_not_found",
        "cover_gen_in_progress",
        "media_not_configured",
        "ai_action_limited",
      ],
    })
    .input(coverRequestInput)
    .use(chargesCredits)
    .output(dataOf(coverGeneration))
    .mutation(({ ctx, input }) => requestCover(ctx, input)),

  // tRPC only (`covers.status`): the /v1 surface serves only the spec's inventory (test/docs.test.ts),
  // so REST clients poll `GET /v1/articles/{id}` (its `cover`, and `cover_generation` from
  // core/covers/cover_reads.ts `latestCoverGeneration`).
  status: keyProcedure
    .input(coverStatusInput)
    .output(dataOf(coverStatus))
    .query(({ ctx, input }) => readCoverStatus(ctx, input)),

  styles: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/cover-styles",
        tags: ["Articles"],
        summary: "Saved cover styles, with ids for `style_id`",
        description: "The workspace's own styles (saved in the companion app) first, then the server's built-in set (`built_in: true`).",
      },
    })
    .input(listCoverStylesInput)
    .use(inAccount)
    .output(listOf(coverStyle))
    .query(({ ctx, input }) => listCoverStyles(ctx, input)),
});
