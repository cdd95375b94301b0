/**
 * Finding a dataset for a caller (owner-scoped: supplement "Owner-scoped" lists
 * `GET /datasets...`; a dataset is the user's, whichever of their accounts built it), and
 * the state rules every dataset endpoint shares: an expired or foreign id is `404
 * not_found`; rows, export, refine, contacts and drafts need `ready` (`409
 * dataset_not_ready` with `error.dataset_status`).
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type DatasetRow, ownedDataset } from "./datasets_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** The caller's dataset `id`, or `404 not_found` (unknown, another user's, or past its 30 days). */
export async function findDataset(ctx: KeyContext, id: string): Promise<DatasetRow> {
  const row = await ownedDataset(ctx.services.sql, ctx.principal.userId, id, new Date(ctx.services.clock.now()));
  if (!row) throw new ApiError("not_found", `Cannot find dataset "${id}"`);
  return row;
}

/** `row` when it is `ready`, else `409 dataset_not_ready` naming its status. */
export function requireReady(row: DatasetRow): DatasetRow {
  if (row.status === "ready") return row;
  const why = row.status === "collecting" ? "is still collecting; poll GET /v1/datasets/{id} until it is ready" : "failed; build it again";
  throw new ApiError("dataset_not_ready", `Dataset "${row.id}" ${why}`, { dataset_status: row.status });
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new dataset id: `ds_` and 16 random base-62 characters (about 95 bits). */
export function newDatasetId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ds_${Array.from(bytes, (byte) => ALPHABET[byte % 62]).join("")}`;
}

/** When a dataset made at `nowMs` expires (spec Constants: 30 days). */
export function expiryOf(nowMs: number): Date {
  return new Date(nowMs + 30 * DAY_MS);
}
