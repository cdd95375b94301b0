/** The query of `GET /v1/engage/mentions` (supplement: Engage): a sort, replied mentions kept or not, a cursor. */
import { z } from "zod";
import { accountSelection } from "../schema.ts";

/** `GET /v1/engage/mentions`: 20 a page, newest first or by engagement. */
export const listMentionsInput = z
  .object({
    sort: z.enum(["latest", "top"], { error: "must be latest or top" }).default("latest"),
    include_replied: z.boolean().default(false).meta({ description: "`true` keeps mentions you already answered, flagged `replied`" }),
    cursor: z.string().max(512).optional().meta({ description: "`pagination.next_cursor` of the previous page" }),
    ...accountSelection,
  })
  .prefault({});

/** The mentions query, parsed. */
export type ListMentionsInput = z.infer<typeof listMentionsInput>;
