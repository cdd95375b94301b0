/**
 * Outreach drafts: `POST /v1/datasets/{id}/outreach-drafts` (docs/areas.md "Datasets"; spec:
 * Datasets, Outreach drafts result, rule 7, AI credits, Constants).
 */
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { draftOutreach } from "../core/datasets/outreach_drafts.ts";
import { outreachDraftsInput, outreachDraftsOutput } from "../core/datasets/outreach_schema.ts";
import { dailyActionCap } from "../core/limits/allowance_catalog.ts";

const cap = (plan: string) => dailyActionCap("outreach_drafts", plan).limit;

export const datasetOutreachRouter = router({
  draft: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/datasets/{id}/outreach-drafts",
        tags: ["Datasets"],
        summary: "Draft a first message for every person of a research dataset",
        description:
          "Writes one message per person onto the rows' `message` column (read back with `GET /v1/datasets/{id}/rows` or the CSV export); nothing is sent (rule 7). " +
          "The dataset must be yours, `ready` (else `409 dataset_not_ready` with `error.dataset_status`) and have `source: research` (else `400 invalid_parameter`). " +
          "Each message follows `format` and personalises only from the person's first usable stored hook, a verbatim quote of their own post (`drafted`); " +
          "a person without one (none, fewer than 3 words, or naming another recipient) gets a message with no personal claims (`generic`). " +
          "The account's products go to the model. `format` (10 to 1,000 characters) is a template or an example: `[name]`, `[first]` and `[handle]` are left " +
          "exactly as written for send-time fill-in; other placeholders such as `{hook}` or `{first_name}` are filled. " +
          "A draft naming another recipient's `@handle` is discarded (`contaminated`) and a row the model could not draft is `failed`: both leave the row with no message " +
          "(its previous one cleared). Drafts over 500 characters are kept and counted in `long_messages`; `sample_messages` shows 3, shortened. A rerun overwrites every draft. " +
          "Rows are drafted 5 at a time. Credits: the calls' measured cost summed in exact cents and rounded up once (25 short drafts usually cost 1 to 3), " +
          "at least 1 when a message was stored (`X-Credits-*` headers); when no row got a message nothing is written or charged: `502 generation_failed` " +
          "(`503 upstream_unavailable` when the model could not be used at all). An empty pool is `429 ai_credits_exhausted`; no enrichment is spent. " +
          `A daily cap of runs per plan (Threadline's: ${cap("trial")} trial and basic, ${cap("pro")} pro, ${cap("advanced")} advanced, ${cap("ultra")} ultra) ` +
          "answers `429 ai_action_limited`.",
      },
      credits: { metered: 1 },
      errors: ["not_found", "dataset_not_ready", "ai_action_limited", "ai_credits_exhausted", "generation_failed", "upstream_unavailable"],
    })
    .input(outreachDraftsInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(outreachDraftsOutput)
    .mutation(({ ctx, input }) => draftOutreach(ctx, input)),
});
