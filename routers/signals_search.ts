/** Lead search: `POST /v1/signals/leads/search` (spec: Other endpoints with stated parameters; supplement: Signals). */
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { leadSearchInput, leadSearchOutput, MAX_ANGLES, MAX_ANGLE_LENGTH } from "../core/signals/lead_search_schema.ts";
import { LEAD_SEARCH_BUDGET_MS, MAX_JUDGED, searchLeads } from "../core/signals/lead_search.ts";
import { MAX_PLANNED_QUERIES } from "../core/signals/query_plan.ts";

export const signalsSearchRouter = router({
  searchLeads: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/signals/leads/search",
        tags: ["Signals"],
        summary: "Find leads now: people whose recent posts and profile fit an ideal customer profile",
        description: [
          `Plans up to ${MAX_PLANNED_QUERIES} searches from the comma-separated \`keywords\` (1 to ${MAX_ANGLES} angles, each up to ${MAX_ANGLE_LENGTH} characters; repeats dropped): every angle alone, then every angle with the ICP's role word (\`churn founder OR churn founders\`); an angle with search operators runs as written.`,
          "Each search reads one page of recent original posts, newest first, over the network's search reach (`freshness.search_window_days`, X API: 7); posts older than `max_post_age_days` are skipped and counted in `freshness`.",
          `One lead per person, from their best matching post; never the account itself. Up to ${MAX_JUDGED} people are scored against \`icp_description\` (and \`offer\`) by the AI model; a lead needs 70 (\`high\`) or 50 (\`discovery\`, the default here), best score first and freshest post first within a score, up to \`max_leads\`.`,
          `The searches stop after about ${LEAD_SEARCH_BUDGET_MS / 1000} s (the first always runs) or when the network fails after a search succeeded: \`partial: true\`.`,
          "Creates nothing: no contacts, no stored leads. Needs the write scope.",
          "Credits: the model's measured cost, at least 1 once the network was reached; nothing when the network was never reached (`503 upstream_unavailable`). Draws one unit per planned query on the platform's live-data ceiling (`429 ai_action_limited`, `scope: platform`); units of queries not run are given back.",
        ].join(" "),
      },
      credits: { metered: 1 },
      toolName: "search_leads",
      errors: ["ai_action_limited", "upstream_unavailable", "upstream_timeout", "upstream_error"],
    })
    .input(leadSearchInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(leadSearchOutput)
    .mutation(({ ctx, input }) => searchLeads(ctx, input)),
});
