/** Audience: `GET /v1/audience/{kind}` (the account's followers, following, repliers and reposters as synced). */
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { audienceList, listAudienceInput } from "../core/audience/audience_index_schema.ts";
import { listAudience } from "../core/audience/audience_index.ts";
import { PLANS } from "../core/plans/plans.ts";

const CAPS = Object.values(PLANS)
  .map((plan) => `${plan.id} ${plan.audienceBackfillCap.toLocaleString("en-US")}`)
  .join(", ");

const DESCRIPTION = [
  "Answered from the audience sync, never live (no enrichment units).",
  `Followers and following are walked 1,000 a page up to the plan's \`meta.backfill_cap\` (${CAPS}); a walk spans several`,
  "5-minute runs, is repeated once a day (people no longer there leave the list), and between walks the first page is re-read",
  "hourly for newcomers, newest first. Repliers and reposters are the people who replied to or reposted the account in the last",
  "`meta.window_days` (90), most engaged first, recounted from the synced content hourly and within minutes of a content sync",
  "that stores new replies or reposts.",
  "`meta.status`: `missing` never synced yet (the sync reaches a new account within minutes); `pending` known to the sync but",
  "not read yet; `running` the first walk (or the engagers' reading) is under way and the list is partial; `complete` the last",
  "walk or reading finished (a daily re-walk runs behind a complete list); `paused` the network failed: the list is as before",
  "and the sync retries later (15 minutes). Cursor paging: pass `pagination.next_cursor` as `cursor`; no total.",
].join(" ");

/** The Audience tag's procedures. */
export const audienceRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/audience/{kind}",
        tags: ["Audience"],
        summary: "List the account's followers, following, repliers or reposters",
        description: DESCRIPTION,
      },
    })
    .input(listAudienceInput)
    .use(inAccount)
    .output(audienceList)
    .query(({ ctx, input }) => listAudience(ctx, input)),
});
