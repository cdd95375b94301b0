/**
 * The plug templates of the demo world: one text-only template in A's workspace, for
 * `GET /v1/plug-templates` and `auto_plug`. Re-runs find it by its text.
 */
import type { Services } from "../context.ts";
import { createPlugTemplate } from "../plug_templates/plug_templates.ts";
import { plugTemplatesOfWorkspace, workspaceOfAccount } from "../plug_templates/plug_templates_queries.ts";

const DEMO_TEXTS = ["If this thread helped, Threadline schedules threads like it for you: https://threadline.example"];

/** Ensures the demo templates in the workspace of `mainAccountId`; answers their ids in order. */
export async function ensureDemoPlugTemplates(services: Services, mainAccountId: string): Promise<string[]> {
  const { sql } = services;
  const workspaceId = (await workspaceOfAccount(sql, mainAccountId)) ?? mainAccountId;
  const existing = await plugTemplatesOfWorkspace(sql, workspaceId);
  const ids: string[] = [];
  for (const text of DEMO_TEXTS) {
    const found = existing.find((row) => row.text === text && row.media_object_key === null);
    ids.push(found ? String(found.id) : (await createPlugTemplate(sql, workspaceId, { text })).id);
  }
  return ids;
}
