/**
 * Plug templates (supplement: Scheduling, `auto_plug`; section 5: GET /v1/plug-templates):
 * the reply a post gets once it passes a like threshold. Templates are workspace-wide like
 * tags; the companion app makes them (here: `threadline plug-templates create`).
 */
import type { AccountContext } from "../context.ts";
import type { Queryable } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { MAX_PLUG_TEMPLATE_TEXT, type PlugTemplate } from "./plug_template_schema.ts";
import { insertPlugTemplate, plugTemplateInWorkspace, plugTemplatesOfWorkspace, type PlugTemplateRow } from "./plug_templates_queries.ts";

/** Lists the workspace's templates, oldest first. */
export async function listPlugTemplates(ctx: AccountContext): Promise<{ data: PlugTemplate[] }> {
  const rows = await plugTemplatesOfWorkspace(ctx.services.sql, ctx.account.workspaceId);
  return { data: rows.map(toPlugTemplate) };
}

/** Creates a template in a workspace (1 to 25,000 characters of text); answers its record. */
export async function createPlugTemplate(sql: Queryable, workspaceId: string, input: { text: string; mediaObjectKey?: string | null }): Promise<PlugTemplate> {
  const length = input.text.trim().length === 0 ? 0 : input.text.length;
  if (length < 1 || length > MAX_PLUG_TEMPLATE_TEXT) {
    throw new ApiError("invalid_parameter", `Invalid "text": must be 1 to ${MAX_PLUG_TEMPLATE_TEXT} characters`);
  }
  return toPlugTemplate(await insertPlugTemplate(sql, workspaceId, input.text, input.mediaObjectKey ?? null));
}

/**
 * Refuses an `auto_plug` whose template is not one of the workspace's (supplement:
 * Scheduling, "unknown template: `unknown_plug_template`"); another workspace's template
 * reads as unknown, as another workspace's tag does.
 */
export async function checkPlugTemplate(sql: Queryable, workspaceId: string, autoPlug: { template_id: string } | null | undefined): Promise<void> {
  if (!autoPlug) return;
  const id = autoPlug.template_id;
  const known = /^[1-9][0-9]{0,15}$/.test(id) && (await plugTemplateInWorkspace(sql, workspaceId, Number(id)));
  if (!known) throw new ApiError("unknown_plug_template", `Cannot find plug template "${id}" in this account's workspace`);
}

/** The record of a stored template. */
export function toPlugTemplate(row: PlugTemplateRow): PlugTemplate {
  return { id: String(row.id), text: row.text, has_media: row.media_object_key !== null };
}
