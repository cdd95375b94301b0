/** SQL of plug templates (migration 0018). */
import type { Queryable } from "../db/sql.ts";

/** A plug_templates row. */
export interface PlugTemplateRow {
  id: number;
  workspace_id: string;
  text: string;
  media_object_key: string | null;
  created_at: Date;
}

/** Inserts a template into a workspace; answers the row. */
export async function insertPlugTemplate(sql: Queryable, workspaceId: string, text: string, mediaObjectKey: string | null): Promise<PlugTemplateRow> {
  const [row] = await sql<PlugTemplateRow[]>`
    insert into plug_templates (workspace_id, text, media_object_key)
    values (${workspaceId}, ${text}, ${mediaObjectKey}) returning *`;
  return row;
}

/** The workspace's templates, oldest first. */
export async function plugTemplatesOfWorkspace(sql: Queryable, workspaceId: string): Promise<PlugTemplateRow[]> {
  return sql<PlugTemplateRow[]>`select * from plug_templates where workspace_id = ${workspaceId} order by id`;
}

/** The template `id` of the workspace, or undefined (another workspace's reads as missing). */
export async function plugTemplateInWorkspace(sql: Queryable, workspaceId: string, id: number): Promise<PlugTemplateRow | undefined> {
  const [row] = await sql<PlugTemplateRow[]>`select * from plug_templates where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

/** The workspace an account belongs to (its main account's id), or undefined. */
export async function workspaceOfAccount(sql: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await sql<{ workspace_id: string }[]>`select coalesce(main_account_id, id) as workspace_id from accounts where id = ${accountId}`;
  return row?.workspace_id;
}

/** Records the plug reply on its post, once: a post already plugged keeps its first reply. */
export async function recordAutoPlugged(sql: Queryable, postId: number, replyId: string, at: Date): Promise<void> {
  await sql`
    update scheduled_posts set auto_plugged_at = ${at}, auto_plug_post_id = ${replyId}
     where id = ${postId} and auto_plugged_at is null`;
}
