/**
 * Workers: `GET /v1/workers`, `GET /v1/workers/suggestions` and the suggestion actions
 * `POST /v1/workers/suggestions/{id}/draft|schedule|dismiss`. Workers are made and run
 * outside the API (rule 7); nothing here spends AI credits.
 */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import {
  listSuggestionsInput,
  listWorkersInput,
  scheduleSuggestionInput,
  suggestionByIdInput,
  worker,
  workerSuggestion,
} from "../core/workers/worker_schema.ts";
import { listSuggestions, listWorkers } from "../core/workers/read_workers.ts";
import { saveSuggestion } from "../core/workers/save_suggestion.ts";
import { dismissSuggestion } from "../core/workers/dismiss_suggestion.ts";

const SAVE_ERRORS = ["suggestion_not_found", "invalid_request", "onboarding_required", "upstream_unavailable"] as const;

/** The Workers endpoints (spec: Workers). */
export const workersRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/workers",
        tags: ["Workers"],
        summary: "List the account's Workers (not paginated)",
        description:
          "Workers are created in the companion app (here: `threadline workers create` or the demo world); each runs on its schedule in its timezone and writes suggestions (`GET /v1/workers/suggestions`).",
      },
    })
    .input(listWorkersInput)
    .use(inAccount)
    .output(z.object({ data: z.array(worker) }))
    .query(({ ctx }) => listWorkers(ctx)),

  suggestions: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/workers/suggestions",
        tags: ["Workers"],
        summary: "List Worker suggestions, newest first",
        description: "Reading changes nothing and spends no credits.",
      },
      errors: ["worker_not_found"],
    })
    .input(listSuggestionsInput)
    .use(inAccount)
    .output(listOf(workerSuggestion))
    .query(({ ctx, input }) => listSuggestions(ctx, input)),

  draft: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/workers/suggestions/{id}/draft",
        tags: ["Workers"],
        summary: "Save a suggestion as a draft post",
        description:
          "Writes a draft visible on GET /v1/scheduled-posts and answers the suggestion with its `post_id`. A suggestion saves once: a second save, or a save after dismiss, answers 400 invalid_request.",
      },
      errors: [...SAVE_ERRORS],
    })
    .input(suggestionByIdInput)
    .output(dataOf(workerSuggestion))
    .mutation(({ ctx, input }) => saveSuggestion(ctx, input)),

  schedule: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/workers/suggestions/{id}/schedule",
        tags: ["Workers"],
        summary: "Schedule a suggestion as a post",
        description:
          "Queues a post for `scheduled_for` (60 s to 18 months ahead; one unit of the post quota) and answers the suggestion with its `post_id`. The post does not inherit Default Post Settings. A suggestion saves once (400 invalid_request).",
      },
      errors: [...SAVE_ERRORS, "post_quota_exceeded"],
    })
    .input(scheduleSuggestionInput)
    .output(dataOf(workerSuggestion))
    .mutation(({ ctx, input }) => saveSuggestion(ctx, input)),

  dismiss: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/workers/suggestions/{id}/dismiss",
        tags: ["Workers"],
        summary: "Dismiss a suggestion",
        description:
          "From to_review, drafted or scheduled. No post is created or removed: a saved post stays (delete it with DELETE /v1/scheduled-posts/{id}). No Idempotency-Key support.",
      },
      errors: ["suggestion_not_found"],
    })
    .input(suggestionByIdInput)
    .output(dataOf(z.object({ id: z.number().int(), dismissed_at: z.string() })))
    .mutation(({ ctx, input }) => dismissSuggestion(ctx, input)),
});
