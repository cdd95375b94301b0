/** Post analysis: `POST /v1/posts/triage`, `POST /v1/posts/viral-score` (spec: Other endpoints; AI credits). */
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { triageInput, triageOutput, viralScoreInput, viralScoreOutput } from "../core/composer/posts_analysis_schema.ts";
import { triage, TRIAGE_CREDITS } from "../core/composer/triage.ts";
import { viralScore } from "../core/composer/viral_score.ts";

export const postsAnalysisRouter = router({
  triage: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/posts/triage",
        tags: ["Content"],
        summary: "Sort recent posts on a topic into read, pass and unsure",
        description:
          "Searches recent original English posts with at least 30 likes (a multi-word plain query also as an exact phrase) and judges up to 40 of them from measured text features. A flat 2 credits per run, none when nothing is found; 1 live lookup for a single word, 2 for several; per-day caps by plan.",
      },
      // Metered so nothing is kept when nothing is found; the minimum refuses a pool under 2.
      credits: { metered: TRIAGE_CREDITS },
      errors: ["ai_action_limited", "lookup_quota_exceeded", "upstream_unavailable", "upstream_timeout", "upstream_error"],
    })
    .input(triageInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(triageOutput)
    .mutation(({ ctx, input }) => triage(ctx, input)),

  viralScore: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/posts/viral-score",
        tags: ["Content"],
        summary: "Estimate a draft's engagement against the account's own posts",
        description:
          "A per-counter regression over the account's original posts of the past 90 days (excluding the last 3); fewer than 10 usable posts fall back to the population of the account's follower tier, with `expected` null. Most calls 0 credits; every 10th call of a day 1; the first call ever 1 more.",
      },
      credits: { metered: 0 },
      errors: ["ai_action_limited", "upstream_unavailable", "upstream_timeout", "upstream_error"],
    })
    .input(viralScoreInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(viralScoreOutput)
    .mutation(({ ctx, input }) => viralScore(ctx, input)),
});
