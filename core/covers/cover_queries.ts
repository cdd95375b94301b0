/** SQL of cover styles and cover generations (migration 0014). */
import type { Queryable } from "../db/sql.ts";

/** A `cover_styles` row; `workspace_id` null is a built-in style. */
export interface CoverStyleRow {
  id: number;
  workspace_id: string | null;
  name: string;
  style_text: string;
  created_at: Date;
}

/** Where a generation is in its life. */
export type CoverGenerationStatus = "queued" | "running" | "done" | "failed" | "timed_out";

/** A `cover_generations` row. */
export interface CoverGenerationRow {
  id: number;
  article_id: number | null;
  account_id: string;
  workspace_id: string;
  status: CoverGenerationStatus;
  attach: boolean;
  style_id: number | null;
  title: string;
  prompt: string;
  base_url: string;
  credit_owner_id: string;
  credit_reference: string;
  credits_reserved: number;
  credits_charged: number | null;
  object_key: string | null;
  image_url: string | null;
  attached: boolean;
  model: string | null;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/** The styles `workspaceId` sees (its own, then the built-in set), one page, and how many there are. */
export async function coverStylesOf(
  sql: Queryable,
  workspaceId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: CoverStyleRow[]; total: number }> {
  const rows = await sql<(CoverStyleRow & { total: number })[]>`
    select *, count(*) over ()::int as total from cover_styles
     where workspace_id = ${workspaceId} or workspace_id is null
     order by workspace_id is null, id
     limit ${page.limit} offset ${page.offset}`;
  return { rows, total: rows[0]?.total ?? (await countCoverStyles(sql, workspaceId)) };
}

async function countCoverStyles(sql: Queryable, workspaceId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from cover_styles where workspace_id = ${workspaceId} or workspace_id is null`;
  return row.count;
}

/** Style `id` when `workspaceId` may use it (its own or built-in), else undefined. */
export async function coverStyleFor(sql: Queryable, id: number, workspaceId: string): Promise<CoverStyleRow | undefined> {
  const [row] = await sql<CoverStyleRow[]>`
    select * from cover_styles where id = ${id} and (workspace_id = ${workspaceId} or workspace_id is null)`;
  return row;
}

/** Saves a style for a workspace (the companion app's write; tests and the demo use it). */
export async function insertCoverStyle(sql: Queryable, style: { workspaceId: string; name: string; styleText: string }): Promise<CoverStyleRow> {
  const [row] = await sql<CoverStyleRow[]>`
    insert into cover_styles (workspace_id, name, style_text) values (${style.workspaceId}, ${style.name}, ${style.styleText})
    returning *`;
  return row;
}

/** The article's generation that is still queued or running, if any. */
export async function activeGenerationOf(sql: Queryable, articleId: number): Promise<CoverGenerationRow | undefined> {
  const [row] = await sql<CoverGenerationRow[]>`
    select * from cover_generations where article_id = ${articleId} and status in ('queued', 'running')`;
  return row;
}

/** One generation by id. */
export async function generationById(sql: Queryable, id: number): Promise<CoverGenerationRow | undefined> {
  const [row] = await sql<CoverGenerationRow[]>`select * from cover_generations where id = ${id}`;
  return row;
}

/** The article's most recent generation, if any. */
export async function latestGenerationOf(sql: Queryable, articleId: number): Promise<CoverGenerationRow | undefined> {
  const [row] = await sql<CoverGenerationRow[]>`
    select * from cover_generations where article_id = ${articleId} order by id desc limit 1`;
  return row;
}

/** Records a queued generation. */
export async function insertGeneration(
  sql: Queryable,
  generation: Pick<
    CoverGenerationRow,
    | "article_id"
    | "account_id"
    | "workspace_id"
    | "attach"
    | "style_id"
    | "title"
    | "prompt"
    | "base_url"
    | "credit_owner_id"
    | "credit_reference"
    | "credits_reserved"
    | "object_key"
  > & { created_at: Date },
): Promise<CoverGenerationRow> {
  const [row] = await sql<CoverGenerationRow[]>`
    insert into cover_generations ${sql(generation, "article_id", "account_id", "workspace_id", "attach", "style_id", "title", "prompt", "base_url", "credit_owner_id", "credit_reference", "credits_reserved", "object_key", "created_at")}
    returning *`;
  return row;
}

/**
 * Moves a generation that has not ended to `running` and counts the attempt; undefined
 * when it has ended (a job run again after its settlement committed does nothing).
 */
export async function startGeneration(sql: Queryable, id: number, at: Date): Promise<CoverGenerationRow | undefined> {
  const [row] = await sql<CoverGenerationRow[]>`
    update cover_generations set status = 'running', attempts = attempts + 1, started_at = ${at}, updated_at = ${at}
     where id = ${id} and status in ('queued', 'running')
    returning *`;
  return row;
}

/** The generation, locked until the transaction ends (every settlement takes this lock first). */
export async function lockGeneration(sql: Queryable, id: number): Promise<CoverGenerationRow | undefined> {
  const [row] = await sql<CoverGenerationRow[]>`select * from cover_generations where id = ${id} for update`;
  return row;
}

/** Ends a generation `done`, with its stored image. */
export async function markGenerationDone(
  sql: Queryable,
  id: number,
  done: { imageUrl: string; attached: boolean; model: string; creditsCharged: number; at: Date },
): Promise<void> {
  await sql`
    update cover_generations
       set status = 'done', image_url = ${done.imageUrl}, attached = ${done.attached}, model = ${done.model},
           credits_charged = ${done.creditsCharged}, error_code = null, error_message = null, finished_at = ${done.at}, updated_at = ${done.at}
     where id = ${id}`;
}

/** Ends a generation `failed` or `timed_out` with the error a synchronous call would have answered. */
export async function markGenerationEnded(
  sql: Queryable,
  id: number,
  ended: { status: "failed" | "timed_out"; errorCode: string; errorMessage: string; creditsCharged: number; at: Date },
): Promise<void> {
  await sql`
    update cover_generations
       set status = ${ended.status}, error_code = ${ended.errorCode}, error_message = ${ended.errorMessage},
           credits_charged = ${ended.creditsCharged}, finished_at = ${ended.at}, updated_at = ${ended.at}
     where id = ${id}`;
}

/** Sets an article's cover to a stored object (the generation's attach step). */
export async function setArticleCover(sql: Queryable, articleId: number, cover: { objectKey: string; url: string; at: Date }): Promise<void> {
  await sql`
    update articles set cover_object_key = ${cover.objectKey}, cover_url = ${cover.url}, updated_at = ${cover.at}
     where id = ${articleId}`;
}

/** The plan and billing anchor of the user whose main account is `ownerId` (a credit pool's owner). */
export async function creditOwnerRow(sql: Queryable, ownerId: string): Promise<{ plan: string; billing_anchor: Date } | undefined> {
  const [row] = await sql<{ plan: string; billing_anchor: Date }[]>`
    select u.plan, u.billing_anchor from accounts a join users u on u.id = a.user_id where a.id = ${ownerId}`;
  return row;
}

/**
 * Serialises cover requests of one credit owner until the transaction ends, so two
 * requests cannot both take the last unit of a cap.
 */
export async function lockCoverCaps(tx: Queryable, ownerId: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`cover_caps:${ownerId}`}))`;
}

/** The owner's generations that count against the caps (all but `failed`, which were refunded) since `dayStart` and `monthStart`. */
export async function coverCountsSince(sql: Queryable, ownerId: string, since: { dayStart: Date; monthStart: Date }): Promise<{ day: number; month: number }> {
  const [row] = await sql<{ day: number; month: number }[]>`
    select count(*) filter (where created_at >= ${since.dayStart})::int as day, count(*)::int as month
      from cover_generations
     where credit_owner_id = ${ownerId} and created_at >= ${since.monthStart} and status <> 'failed'`;
  return row;
}
