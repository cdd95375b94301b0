/**
 * Articles: `GET/POST /v1/articles`, `GET/PATCH/DELETE /v1/articles/{id}` and the
 * transitions `POST /v1/articles/{id}/schedule|unschedule|publish` (spec: Article, States
 * (Article), Articles; supplement: Articles). Id-addressed calls find the article among
 * every account the key reaches; `account_id` narrows the search.
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  article,
  articleByIdInput,
  createArticleInput,
  listArticlesInput,
  publishedArticle,
  scheduleArticleInput,
  updateArticleInput,
} from "../core/articles/article_schema.ts";
import { createArticle } from "../core/articles/create_article.ts";
import { updateArticle } from "../core/articles/update_article.ts";
import { deleteArticle } from "../core/articles/delete_article.ts";
import { listArticles } from "../core/articles/list_articles.ts";
import { articleWithCover, getArticle } from "../core/covers/article_with_cover.ts";
import { scheduleArticle, unscheduleArticle } from "../core/articles/schedule_article.ts";
import { publishArticleNow } from "../core/articles/publish_article_request.ts";

/** The Articles endpoints. */
export const articlesRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/articles",
        tags: ["Articles"],
        summary: "List articles",
        description:
          "Most recently updated first. `status` filters: draft, scheduled, publishing (a publication in flight or being reconciled), published, failed (drafts whose last publication failed; they carry `last_error`).",
      },
    })
    .input(listArticlesInput)
    .use(inAccount)
    .output(listOf(article))
    .query(({ ctx, input }) => listArticles(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/articles",
        tags: ["Articles"],
        summary: "Save an article draft",
        description:
          "The body is Markdown, in both directions. The network's subset is kept (headings 1-3, two list levels, one quote level, bold, italic, strikethrough, http(s) links and images, a post URL on its own line); code, HTML, tables, footnotes and task boxes degrade to text, deeper nesting flattens, and each change is reported in `warnings`; a link or image URL that is not http(s) is refused.",
      },
      successStatus: 201,
      idempotent: true,
    })
    .input(createArticleInput)
    .use(inAccount)
    .output(dataOf(article))
    .mutation(({ ctx, input }) => createArticle(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/articles/{id}",
        tags: ["Articles"],
        summary: "Read one article, body included",
        description:
          "The article with `content_markdown` and its latest cover generation (poll it after `POST /v1/articles/{id}/cover`). Without `account_id` it is looked for among every account the key reaches.",
      },
      errors: ["not_found"],
    })
    .input(articleByIdInput)
    .output(dataOf(articleWithCover))
    .query(({ ctx, input }) => getArticle(ctx, input)),

  update: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/articles/{id}",
        tags: ["Articles"],
        summary: "Change an article",
        description:
          "Only the fields sent change; `content_markdown` replaces the body; `cover_url: null` removes the cover. Published articles, and articles being published, cannot change (409 article_not_editable).",
      },
      errors: ["not_found", "article_not_editable"],
    })
    .input(updateArticleInput)
    .output(dataOf(article))
    .mutation(({ ctx, input }) => updateArticle(ctx, input)),

  delete: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/articles/{id}",
        tags: ["Articles"],
        summary: "Delete an article (a scheduled article's quota unit is refunded)",
        description:
          "Answers `{ data: { id, deleted: true } }`. A published article's record goes while its unit stays spent and the network keeps the article; one being published cannot be deleted until its outcome is settled (`409 article_not_editable`).",
      },
      errors: ["not_found", "article_not_editable", "upstream_unavailable"],
    })
    .input(articleByIdInput)
    .output(dataOf(z.object({ id: z.string(), deleted: z.literal(true) })))
    .mutation(({ ctx, input }) => deleteArticle(ctx, input)),

  schedule: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/articles/{id}/schedule",
        tags: ["Articles"],
        summary: "Schedule or reschedule an article",
        description: "`scheduled_for` more than 2 minutes ahead. Scheduling a draft takes one unit of the post quota; rescheduling keeps it.",
      },
      idempotent: true,
      errors: ["not_found", "article_not_editable", "onboarding_required", "post_quota_exceeded", "upstream_unavailable"],
    })
    .input(scheduleArticleInput)
    .output(dataOf(article))
    .mutation(({ ctx, input }) => scheduleArticle(ctx, input)),

  unschedule: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/articles/{id}/unschedule",
        tags: ["Articles"],
        summary: "Return a scheduled article to draft (its quota unit is refunded)",
        description: "Answers the article in `draft`; an article that is not scheduled answers `409 article_not_scheduled`.",
      },
      errors: ["not_found", "article_not_scheduled", "upstream_unavailable"],
    })
    .input(articleByIdInput)
    .output(dataOf(article))
    .mutation(({ ctx, input }) => unscheduleArticle(ctx, input)),

  publish: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/articles/{id}/publish",
        tags: ["Articles"],
        summary: "Publish an article now",
        description:
          "Send an `Idempotency-Key`. Needs the premium tier on the connected X account (`403 x_premium_required`). A failure returns the article to draft (502 x_publish_failed, quota refunded; also for the network's 10 drafts / 5 publishes a day); on 504 upstream_timeout it stays `publishing` until the outcome is reconciled by the publication's token (a retry, or a job 150 s later), never guessed: read it before retrying (a retry never publishes twice).",
      },
      idempotent: true,
      errors: [
        "not_found",
        "article_not_editable",
        "post_quota_exceeded",
        "x_premium_required",
        "x_publish_failed",
        "upstream_timeout",
        "idempotency_in_flight",
      ],
    })
    .input(articleByIdInput)
    .output(dataOf(publishedArticle))
    .mutation(({ ctx, input }) => publishArticleNow(ctx, input)),
});
