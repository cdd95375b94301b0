/**
 * A cover request that waits for its image (spec: the cover "takes 60 to 100 seconds"; a `504
 * upstream_timeout` keeps the credits). The request has enqueued the generation's job; this
 * polls the generation until it ends, in whichever process the job runs, and turns its ending
 * into the answer: `done` answers the generation, `timed_out` the spec's `504`, `failed` the
 * code the job recorded. Past the wait the generation goes on in the background and the
 * answer is a `504` naming it, so the client can poll `GET /v1/articles/{id}`. A client that
 * sends `Prefer: respond-async` (RFC 7240) gets the queued generation at once (`202`).
 */
import { ApiError, ERROR_STATUS, type ErrorCode } from "../errors.ts";
import type { Queryable } from "../db/sql.ts";
import { generationById, type CoverGenerationRow } from "./cover_queries.ts";

/** How long a request waits by default: past the 100 s the spec gives a cover. */
export const COVER_WAIT_MS = 120_000;

/** How often the waiting request reads the generation. */
const POLL_MS = 200;

/** Whether the request's `Prefer` header asks for `respond-async` (RFC 7240: comma-separated preferences, parameters after `;`). */
export function prefersAsync(prefer: string | null): boolean {
  if (!prefer) return false;
  return prefer.split(",").some((preference) => preference.split(";")[0].trim().toLowerCase() === "respond-async");
}

/** Waits up to `waitMs` for generation `id` to end; answers it `done`, else throws the ending's error. */
export async function awaitCover(sql: Queryable, id: number, waitMs: number, articleId: string): Promise<CoverGenerationRow> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await generationById(sql, id);
    if (!row) throw new ApiError("not_found", `Cannot find the cover generation of article "${articleId}"`);
    if (row.status === "done") return row;
    const extra = { generation_id: String(row.id), generation_status: row.status };
    if (row.status === "timed_out") throw new ApiError("upstream_timeout", row.error_message ?? "The image model did not answer in time", extra);
    if (row.status === "failed") throw new ApiError(endingCode(row.error_code), row.error_message ?? "The cover could not be generated", extra);
    if (Date.now() >= deadline) {
      throw new ApiError(
        "upstream_timeout",
        `The cover was not ready within ${Math.round(waitMs / 1000)} s; it is still being generated: poll GET /v1/articles/${articleId} (or send "Prefer: respond-async" for a 202 at once)`,
        extra,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
  }
}

/** The recorded code of a failed generation as an answer; one this API does not know is `upstream_error`. */
function endingCode(code: string | null): ErrorCode {
  return code !== null && Object.hasOwn(ERROR_STATUS, code) ? (code as ErrorCode) : "upstream_error";
}
