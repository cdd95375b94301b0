/** Input and answer of `GET /v1/audience/{kind}` (supplement section 5; spec: Contact list member). */
import { z } from "zod";
import { cursorPagination } from "../lookups/lookup_records.ts";
import { accountSelection, limitParam } from "../schema.ts";
import { personFields } from "../people/person_fields.ts";

/** The four audience lists. */
export const audienceKind = z
  .enum(["followers", "following", "repliers", "reposters"], { error: "must be one of followers, following, repliers, reposters" })
  .meta({ description: "`followers`, `following`, `repliers` or `reposters`" });

/** The query of `GET /v1/audience/{kind}`. */
export const listAudienceInput = z.object({
  kind: audienceKind,
  ...accountSelection,
  cursor: z.string().max(512, "must be at most 512 characters").optional().meta({ description: "`pagination.next_cursor` of the previous page" }),
  limit: limitParam(50),
});

/** A person of an audience list: the member fields of the spec, the row id being the person's X user id. */
export const audienceMember = z
  .object({
    id: z.string().meta({ description: "The person's X user id (the row id of a system list)" }),
    ...personFields,
    replies_count: z.number().int().meta({ description: "Replies to the account in the last 90 days" }),
    reposts_count: z.number().int().meta({ description: "Reposts of the account's posts in the last 90 days" }),
    icp_score: z.null().meta({ description: "Always null on audience lists" }),
    icp_rationale: z.null().meta({ description: "Always null on audience lists" }),
  })
  .meta({ id: "AudienceMember" });

/** Where the list's sync stands. */
export const audienceMeta = z.object({
  kind: audienceKind,
  synced_count: z.number().int().meta({ description: "People in the list as last synced" }),
  status: z.enum(["missing", "pending", "running", "complete", "paused"]),
  backfill_cap: z.number().int().nullable().meta({ description: "Followers or following the plan syncs at most; null on repliers and reposters" }),
  is_capped: z.boolean().nullable().meta({ description: "The cap stopped the last walk before the list's end; null on repliers and reposters" }),
  window_days: z.number().int().nullable().meta({ description: "90 on repliers and reposters; null on followers and following" }),
  account_id: z.string(),
  x_account_id: z.string(),
  last_synced_at: z.string().nullable(),
});

/** The answer of `GET /v1/audience/{kind}`. */
export const audienceList = z.object({ data: z.array(audienceMember), pagination: cursorPagination, meta: audienceMeta });

/** Which list. */
export type AudienceKind = z.infer<typeof audienceKind>;
/** The validated query. */
export type ListAudienceInput = z.infer<typeof listAudienceInput>;
/** One row of the answer. */
export type AudienceMember = z.infer<typeof audienceMember>;
