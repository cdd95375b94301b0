/**
 * Engage feeds (spec: Engage feed, States "Engage feed", POST /v1/engage/feeds; supplement:
 * Engage and section 5): list, create, rename or re-source, delete. At most 8 per account;
 * a new feed is `active` only when the account had no active feed, so creating never moves
 * the feed open in the app; deleting the open feed hands it to the first remaining one.
 */
import type { AccountContext, KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { resolveAccount } from "../accounts/resolve_account.ts";
import { type ChangeFeedInput, type CreateFeedInput, type FeedByIdInput, MAX_FEEDS, SOURCE_FIELDS } from "./feed_schema.ts";
import { resolveSource, typeOfSource } from "./feed_source.ts";
import { reachableFeed, feedNotFound } from "./feed_access.ts";
import { toFeed } from "./feed_view.ts";
import { activateFirstFeed, deleteFeedRow, feedById, feedsOfAccount, insertFeed, lockAccountFeeds, updateFeed } from "./feeds_queries.ts";

/** `GET /v1/engage/feeds`: the account's feeds, oldest first; spends no fetch allowance. */
export async function listFeeds(ctx: AccountContext) {
  const rows = await feedsOfAccount(ctx.services.sql, ctx.account.id);
  return { data: rows.map(toFeed) };
}

/** `POST /v1/engage/feeds`. */
export async function createFeed(ctx: AccountContext, input: CreateFeedInput) {
  const implied = typeOfSource(input);
  if (implied !== input.type) {
    throw new ApiError("invalid_parameter", `Invalid "type": a ${input.type} feed takes "${sourceFieldsOf(input.type)}", not the source sent`);
  }
  // Resolved before the cap is checked: a list's unit is spent even when refused (Limits 4).
  const source = await resolveSource(ctx, input);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const id = await sql.begin(async (tx) => {
    const { count, hasActive } = await lockAccountFeeds(tx, ctx.account.id);
    if (count >= MAX_FEEDS) {
      throw new ApiError("feed_limit_reached", `The account already has ${MAX_FEEDS} Engage feeds, the most it keeps; delete one first`);
    }
    return insertFeed(tx, { accountId: ctx.account.id, name: input.name, active: !hasActive, source }, now);
  });
  return { data: toFeed(await mustFind(ctx, id)) };
}

/** `PATCH /v1/engage/feeds/{id}`: a new name and/or one new source; the type follows the source. */
export async function changeFeed(ctx: KeyContext, input: ChangeFeedInput) {
  // Access first: whether a feed exists and may be changed is answered before the body's
  // own rule, as every id-addressed write does (ARCHITECTURE: "Id-addressed calls").
  const feed = await reachableFeed(ctx, input.id, { accountId: input.account_id, write: true });
  const sent = SOURCE_FIELDS.filter((field) => input[field] !== undefined);
  if (sent.length > 1) throw new ApiError("invalid_parameter", `Invalid "${sent[1]}": send at most one of ${SOURCE_FIELDS.map((f) => `"${f}"`).join(", ")}`);
  if (sent.length === 0 && input.name === undefined) throw new ApiError("invalid_parameter", 'Send "name", a new source, or both');
  const source = sent.length > 0 ? await resolveSource(await ownerContext(ctx, feed.account_id), input) : undefined;
  const { sql, clock } = ctx.services;
  const changed = await sql.begin((tx) => updateFeed(tx, feed.id, { name: input.name, source }, new Date(clock.now())));
  if (!changed) throw feedNotFound(feed.id);
  return { data: toFeed(await mustFind(ctx, feed.id)) };
}

/** `DELETE /v1/engage/feeds/{id}`: answers which feed is open now (null when none is left). */
export async function deleteFeed(ctx: KeyContext, input: FeedByIdInput) {
  const feed = await reachableFeed(ctx, input.id, { accountId: input.account_id, write: true });
  const activeId = await ctx.services.sql.begin(async (tx) => {
    await lockAccountFeeds(tx, feed.account_id);
    const deleted = await deleteFeedRow(tx, feed.id);
    if (!deleted) throw feedNotFound(feed.id);
    if (deleted.wasActive) return activateFirstFeed(tx, feed.account_id);
    const remaining = await feedsOfAccount(tx, feed.account_id);
    return remaining.find((row) => row.active)?.id ?? null;
  });
  return { data: { id: String(feed.id), deleted: true as const, active_feed_id: activeId === null ? null : String(activeId) } };
}

/** The context of the feed's own account, so a new source is checked against it (a contact list of that account). */
async function ownerContext(ctx: KeyContext, accountId: string): Promise<AccountContext> {
  const account = await resolveAccount(ctx, ctx.principal, accountId, { write: true });
  return { ...ctx, account };
}

async function mustFind(ctx: KeyContext, id: number) {
  const row = await feedById(ctx.services.sql, id);
  if (!row) throw feedNotFound(id);
  return row;
}

function sourceFieldsOf(type: "keywords" | "x_list" | "list"): string {
  return type === "keywords" ? "keywords" : type === "x_list" ? "x_list_id or x_list_url" : "list_id";
}
