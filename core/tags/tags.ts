/**
 * Tags (spec: GET/POST /v1/tags, PATCH/DELETE /v1/tags/{id}; supplement: Tags).
 * Tags are workspace-wide: a main account and its linked accounts share one set.
 */
import type { AccountContext, KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isUniqueViolation } from "../db/pg_errors.ts";
import { findReachable } from "../accounts/owner_access.ts";
import { pageInfo } from "../schema.ts";
import type { CreateTagInput, ListTagsInput, Tag, TagByIdInput, UpdateTagInput } from "./tag_schema.ts";
import { countTags, deleteTagRow, insertTag, listTagRows, tagById, type TagRow, updateTag as updateTagRow } from "./tags_queries.ts";

/** The color a tag gets when none is sent (supplement: Tags). */
export const DEFAULT_TAG_COLOR = "blue";

/** Lists the workspace's tags by name. */
export async function listTags(ctx: AccountContext, input: ListTagsInput) {
  const { sql } = ctx.services;
  const offset = (input.page - 1) * input.limit;
  const rows = await listTagRows(sql, ctx.account.workspaceId, input.limit, offset);
  const total = rows[0]?.total ?? (offset > 0 ? await countTags(sql, ctx.account.workspaceId) : 0);
  return { data: rows.map(toTag), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}

/** Creates a tag; a name already used in the workspace (any case) answers `409 duplicate_name`. */
export async function createTag(ctx: AccountContext, input: CreateTagInput) {
  try {
    const row = await insertTag(ctx.services.sql, ctx.account.workspaceId, input.name, input.color ?? DEFAULT_TAG_COLOR);
    return { data: toTag(row) };
  } catch (error) {
    throw duplicateOr(error, input.name);
  }
}

/** Renames or recolors a tag the key can write. */
export async function updateTag(ctx: KeyContext, input: UpdateTagInput) {
  if (input.name === undefined && input.color === undefined) {
    throw new ApiError("invalid_parameter", 'Send "name", "color" or both');
  }
  await writableTag(ctx, input.id, input.account_id);
  try {
    const row = await updateTagRow(ctx.services.sql, input.id, input);
    if (!row) throw notFound(input.id);
    return { data: toTag(row) };
  } catch (error) {
    throw duplicateOr(error, input.name ?? "");
  }
}

/** Deletes a tag; it is removed from every post that carried it. */
export async function deleteTag(ctx: KeyContext, input: TagByIdInput) {
  await writableTag(ctx, input.id, input.account_id);
  if (!(await deleteTagRow(ctx.services.sql, input.id))) throw notFound(input.id);
  return { data: { id: input.id, deleted: true as const } };
}

async function writableTag(ctx: KeyContext, id: number, accountId: string | undefined): Promise<TagRow> {
  const found = await findReachable(
    ctx,
    { accountId, intent: { write: true } },
    () => tagById(ctx.services.sql, id),
    (row) => row.workspace_id,
  );
  if (!found) throw notFound(id);
  return found.row;
}

function notFound(id: number): ApiError {
  return new ApiError("not_found", `Cannot find tag "${id}"`);
}

function duplicateOr(error: unknown, name: string): unknown {
  return isUniqueViolation(error) ? new ApiError("duplicate_name", `A tag named "${name}" already exists`) : error;
}

function toTag(row: TagRow): Tag {
  return {
    id: row.id,
    name: row.name,
    color: row.color as Tag["color"],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
