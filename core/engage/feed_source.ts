/**
 * A feed's source, checked and resolved (spec: POST /v1/engage/feeds; Limits 4): keywords
 * cost nothing; a public X list is read live for one enrichment unit, spent once the lookup
 * ran (found or not, and even when the create is then refused with `409 feed_limit_reached`)
 * and given back only when the network could not be reached; a contact list must be one the
 * user made on the same account.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import { callNetwork } from "../network/call_network.ts";
import { reachableList } from "../contact_lists/list_access.ts";
import type { FeedSource } from "./feed_schema.ts";
import type { FeedRow, FeedSourceColumns } from "./feeds_queries.ts";

/** The type a source field implies. */
export function typeOfSource(input: FeedSource): FeedRow["type"] | undefined {
  if (input.keywords !== undefined) return "keywords";
  if (input.x_list_id !== undefined || input.x_list_url !== undefined) return "x_list";
  if (input.list_id !== undefined) return "list";
  return undefined;
}

/** Checks and resolves the one source in `input` for the account in `ctx`. */
export async function resolveSource(ctx: AccountContext, input: FeedSource): Promise<FeedSourceColumns> {
  const none = { keywords: null, x_list_id: null, x_list_name: null, list_id: null };
  if (input.keywords !== undefined) return { ...none, type: "keywords", keywords: input.keywords };
  if (input.list_id !== undefined) {
    // A system list's members live in the audience index, not in list rows: refused as on
    // GET /v1/contact-lists/{id}/members (`400 system_list_not_supported`).
    const { list } = await reachableList(ctx, input.list_id, { accountId: ctx.account.id, use: "read_members" });
    return { ...none, type: "list", list_id: list.id };
  }
  const listId = (input.x_list_id ?? input.x_list_url) as string;
  const release = await chargeExtraUnits(ctx, ctx.principal, { enrichment: 1 });
  try {
    const list = await callNetwork(() => ctx.services.network.listById(listId));
    if (list.private) throw new ApiError("x_list_not_found", `X list "${listId}" is private`);
    return { ...none, type: "x_list", x_list_id: list.id, x_list_name: list.name };
  } catch (error) {
    if (error instanceof ApiError && (error.code === "upstream_unavailable" || error.code === "upstream_timeout")) await release();
    throw error;
  }
}
