/** SQL for tags. */
import type { Queryable } from "../db/sql.ts";

/** A tag row. */
export interface TagRow {
  id: number;
  workspace_id: string;
  name: string;
  color: string;
  created_at: Date;
  updated_at: Date;
}

/** A page of a workspace's tags by name, with the total in the same scan. */
export async function listTagRows(sql: Queryable, workspaceId: string, limit: number, offset: number) {
  return sql<(TagRow & { total: number })[]>`
    select id, workspace_id, name, color, created_at, updated_at, count(*) over ()::int as total
      from tags where workspace_id = ${workspaceId}
     order by lower(name), id limit ${limit} offset ${offset}`;
}

/** How many tags a workspace has. */
export async function countTags(sql: Queryable, workspaceId: string): Promise<number> {
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from tags where workspace_id = ${workspaceId}`;
  return count;
}

/** One tag by id, or undefined. */
export async function tagById(sql: Queryable, id: number): Promise<TagRow | undefined> {
  const [row] = await sql<TagRow[]>`select id, workspace_id, name, color, created_at, updated_at from tags where id = ${id}`;
  return row;
}

/** Inserts a tag (a duplicate name raises the unique violation `23505`). */
export async function insertTag(sql: Queryable, workspaceId: string, name: string, color: string): Promise<TagRow> {
  const [row] = await sql<TagRow[]>`
    insert into tags (workspace_id, name, color) values (${workspaceId}, ${name}, ${color})
    returning id, workspace_id, name, color, created_at, updated_at`;
  return row;
}

/** Changes the fields given. */
export async function updateTag(sql: Queryable, id: number, changes: { name?: string; color?: string }): Promise<TagRow | undefined> {
  const [row] = await sql<TagRow[]>`
    update tags set name = coalesce(${changes.name ?? null}, name), color = coalesce(${changes.color ?? null}, color),
                    updated_at = now()
     where id = ${id}
    returning id, workspace_id, name, color, created_at, updated_at`;
  return row;
}

/** Deletes a tag; posts lose it through their foreign key. */
export async function deleteTagRow(sql: Queryable, id: number): Promise<boolean> {
  const rows = await sql`delete from tags where id = ${id} returning id`;
  return rows.length === 1;
}
