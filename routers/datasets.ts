/**
 * Datasets: create (collect or research), list and read (`POST /v1/datasets`, `GET
 * /v1/datasets`, `GET /v1/datasets/{id}`; docs/areas.md "Datasets"; spec rules 7-8, Datasets, Limits 7-8;
 * supplement: Datasets). Reads are owner-scoped (no `account_id`).
 */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { createDatasetInput, createDatasetOutput, dataset, datasetByIdInput, listDatasetsInput } from "../core/datasets/dataset_schema.ts";
import { createDataset } from "../core/datasets/create_dataset.ts";
import { getDataset, listDatasets } from "../core/datasets/read_datasets.ts";
import { dailyActionCap } from "../core/limits/allowance_catalog.ts";

const tags = ["Datasets"];
const RESEARCH_CAPS = ["basic", "trial", "pro", "advanced", "ultra"].map((plan) => `${plan} ${dailyActionCap("research_profiles", plan).limit}`).join(", ");

export const datasetsRouter = router({
  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/datasets",
        tags,
        summary: "Collect an audience or research profiles into a dataset",
        description:
          "**Collections** (`source`: `repliers`, `quoters`, `reposters` of a post; `list_members` of a public X list; `my_posts`, `my_replies` of the account). " +
          "`target` is a post URL (`https://x.com/<handle>/status/<id>`, twitter.com too, with or without a query) or id, or an X list URL (`https://x.com/i/lists/<id>`) or id; " +
          "required for the four network sources, refused for `my_*` (`400`); a missing post is `404 post_not_found`, a private or unknown list `404 x_list_not_found`. " +
          "Research fields (`handles`, `list_id`, `agent_id`, `dataset_id`, `focus`) are refused with `400` naming the field. " +
          "`max_rows` 1 to 1,000 (default 500). One row per person, keyed by X user id (repeat appearances counted in `counts.duplicates`), never the account itself; " +
          "repliers and quoters rows carry the person's reply or quote (text and counters), reposters and list members carry the person only; own-content rows are posts (`has_people: false`). " +
          "`filters`: `keywords` (the row's text contains one, case-insensitive; repliers, quoters and own content), `bio_keywords`, `min_followers`, `require_website`, `require_can_dm`; " +
          "`since_days` (default 90) and `sort` (`recent`, `likes`, `impressions`) for own content. A filter a source cannot apply is ignored and named in `note` (profile filters on own content; `keywords` on reposters and list members). " +
          "The size is read first (the post's counter or the list's member count): an expected total of at most 100 is collected at once and answers `201` `ready`; " +
          "a larger or unsizable one (a counter of 0, which X may report for a post whose count it withholds) answers `202` `collecting` with zero rows and finishes in the background " +
          "(poll `GET /v1/datasets/{id}`: `rows_collected`, `expected_total`, `coverage`), ending `ready` or `failed` (with an `error` sentence). A filtered walk reads at most 5,000 people. " +
          "Costs: enrichment units, 1 for the size estimate plus the expected pages, `ceil(min(expected_total, max_rows or, with filters, 5,000) / 100)` (2 when unsizable; " +
          "`meta.enrichment_units`), charged before the walk (`429 rate_limited` when over the plan's enrichment bucket; given back when the create is then refused); " +
          "`my_posts`/`my_replies` cost none, are always synchronous and read the live timeline. " +
          "One of 10 collections per account per UTC day (`429 collection_quota_exceeded` with `limit`, `reset_at` and `Retry-After`; refine counts, research does not); " +
          "one background collection per account at a time (`409 collection_in_progress`, naming it in `error.dataset_id`). " +
          "A collection matching nobody answers `200` with `data: null` and a `note`, stores nothing and gives its slot back (in the background it ends `ready` with no rows, a note, and its slot back). " +
          "**Research** (`source: research`) researches up to 25 people, taken from exactly one of `handles` (1 to 25, with or without `@`), `list_id` (your contact list, " +
          "newest members first), `agent_id` (a signal agent's leads, best score first) or `dataset_id` (another ready dataset of yours with people, in row order; " +
          "`409 dataset_not_ready` with `error.dataset_status` while it is collecting or failed). " +
          "`max_rows` 1 to 25 (default 10; with `handles`, every handle sent); `focus` and `title` optional; `target` and `filters` are refused (`400`). " +
          "Each person is resolved (a handle by name, a stored person by X id) and their last 20 original posts of the last 60 days are read " +
          "(replies, reposts and quotes left out); each row gets a brief " +
          "(summary, topics, tone, recent themes) and up to 3 hooks, each a quote of one of those posts with its `post_id`, `post_url` and `posted_at`, kept only " +
          "when it appears word for word in that post (runs of whitespace are the one tolerance; the stored quote is the post's own text). One row per person. " +
          "Up to 5 profiles answer `201` ready with `meta.credits_charged` and `meta.skipped`; more answer `202` collecting (`expected_total`, 0 rows). " +
          "Costs, all decided in the request: 1 credit per profile researched (charged up front for the profiles read, the others refunded and listed in " +
          "`meta.skipped` with a reason; `429 ai_credits_exhausted` before anything runs when the pool cannot cover every profile asked for); " +
          `the \`research_profiles\` day cap (${RESEARCH_CAPS}) and the platform live-data ceiling, 1 unit per profile, all or nothing ` +
          "(`429 ai_action_limited`, `scope` `account` or `platform`); and the daily live allowance, 1 unit per profile whose X id is known, 2 per handle, " +
          "taken profile by profile: when it runs out mid-run there is no 429, the rest are skipped as `allowance_exhausted` (their cap units given back, not charged). " +
          "A run that researches nobody answers `200` with `data: null`, a `note` and `meta.skipped`, stores nothing and gives its credits back. " +
          "Research takes no daily collection slot and runs beside a background collection. " +
          "Credit headers: `X-Credits-Charged` on `200`/`201`, only `X-Credits-Remaining` and `X-Credits-Reset` on `202`.",
      },
      successStatus: 201,
      alsoAnswers: [200, 202],
      errors: [
        "post_not_found",
        "x_list_not_found",
        "list_not_found",
        "agent_not_found",
        "not_found",
        "dataset_not_ready",
        "collection_in_progress",
        "collection_quota_exceeded",
        "ai_action_limited",
        "ai_credits_exhausted",
        "upstream_unavailable",
        "upstream_error",
        "upstream_timeout",
      ],
    })
    .input(createDatasetInput)
    .use(inAccount)
    .output(createDatasetOutput)
    .mutation(({ ctx, input }) => createDataset(ctx, input)),

  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets",
        tags,
        summary: "List your datasets",
        description: "Newest first, every dataset of yours (whichever account built it: owner-scoped, no `account_id`) that has not passed its 30 days.",
      },
    })
    .input(listDatasetsInput)
    .output(listOf(dataset))
    .query(({ ctx, input }) => listDatasets(ctx, input)),

  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/datasets/{id}",
        tags,
        summary: "Read a dataset's status, counts and coverage",
        description:
          "Poll this while a dataset is `collecting` (the real client polls every 5 s): `rows_collected` and `expected_total` show progress. " +
          "`collecting` finishes on its own; `failed` must be built again. Owner-scoped; an expired id (30 days) is `404 not_found`.",
      },
      errors: ["not_found"],
    })
    .input(datasetByIdInput)
    .output(dataOf(dataset))
    .query(({ ctx, input }) => getDataset(ctx, input)),
});
