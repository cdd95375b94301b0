/** Cover rows as the API shows them (cover_schema.ts). */
import type { CoverGeneration, CoverStyle } from "./cover_schema.ts";
import type { CoverGenerationRow, CoverStyleRow } from "./cover_queries.ts";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";

/** The record of a generation row. */
export function generationView(row: CoverGenerationRow): CoverGeneration {
  const ended = row.status === "failed" || row.status === "timed_out";
  return {
    id: String(row.id),
    article_id: row.article_id === null ? null : String(row.article_id),
    account_id: row.account_id,
    status: row.status,
    attach: row.attach,
    attached: row.attached,
    style_id: row.style_id === null ? null : String(row.style_id),
    cover: row.status === "done" && row.object_key && row.image_url ? { url: row.image_url, object_key: row.object_key } : null,
    error: ended && row.error_code ? { code: row.error_code, status: statusOf(row.error_code), message: row.error_message ?? "" } : null,
    credits_charged: row.credits_charged,
    model: row.model,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** The record of a style row. */
export function styleView(row: CoverStyleRow): CoverStyle {
  return { id: String(row.id), name: row.name, style_text: row.style_text, built_in: row.workspace_id === null, created_at: row.created_at.toISOString() };
}

function statusOf(code: string): number {
  return Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : 500;
}
