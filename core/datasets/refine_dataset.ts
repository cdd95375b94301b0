/**
 * `POST /v1/datasets/{id}/refine` (docs/areas.md "Datasets"; supplement: refine; spec Limits 7). A
 * refine writes a NEW dataset of the same `source` (so it can be refined again), with
 * `parent_id` the dataset it read and `params` holding the criterion, `keep_matching`,
 * `sort_by` and `limit`; the source is never touched. Only text-bearing datasets
 * (`TEXT_SOURCES`: repliers, quoters) can be refined, else `400 invalid_parameter`.
 *
 * It takes one of the account's 10 daily collection slots ("refine counts against the same
 * 10": `429 collection_quota_exceeded`). Up to `SYNC_REFINE_ROWS` rows with text are judged in
 * the request (`201` ready); more answer `202` collecting and the `build_dataset` job judges
 * them (one background collection per account: `409 collection_in_progress`), saving its
 * verdicts as it goes so a retry resumes without judging or writing a row twice; it ends
 * `ready`, or `failed` on its last attempt. Refine costs no enrichment (Limits 7) and no AI
 * credits: the daily slot bounds it (Threadline's choice; the spec's AI credit table does not
 * price it). A model failure in the request answers `502`/`503`/`504` and stores nothing.
 */
import { finishDatasetRecorded, recordDatasetEvent } from "./dataset_events.ts";
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isUniqueViolation } from "../db/pg_errors.ts";
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { assertCollectionSlot, quotaDayOf } from "./collection_quota.ts";
import { expiryOf, findDataset, newDatasetId, requireReady } from "./dataset_access.ts";
import { enqueueDatasetJob } from "./dataset_job.ts";
import { type RefineDatasetInput, SYNC_REFINE_ROWS } from "./dataset_rows_schema.ts";
import { TEXT_SOURCES } from "./dataset_schema.ts";
import { datasetView } from "./dataset_view.ts";
import {
  appendRows,
  type DatasetParams,
  type DatasetRow,
  datasetById,
  insertDataset,
  type NewDataset,
  saveProgress,
  type StoredRow,
} from "./datasets_queries.ts";
import { countRowsWithText } from "./refine_queries.ts";
import { judgeAll, judgeBatch, REFINE_BATCH, refinedRows, textOf, type Verdicts } from "./refine_rows.ts";
import { walkRows } from "./row_walk.ts";

/** Where a background refine stands: rows judged up to position `after`, and their verdicts. */
interface RefineCursor {
  after: number;
  judged: number;
  verdicts: Verdicts;
}

/** Starts a refine of the caller's dataset `input.id` for the account in `ctx`. */
export async function startRefine(ctx: AccountContext, input: RefineDatasetInput) {
  const source = requireReady(await findDataset(ctx, input.id));
  if (!TEXT_SOURCES.includes(source.source)) {
    throw new ApiError(
      "invalid_parameter",
      `Dataset "${source.id}" (${source.source}) has no row text to judge: only repliers and quoters datasets can be refined`,
    );
  }
  const { sql, clock, model } = ctx.services;
  const nowMs = clock.now();
  const accountId = ctx.account.id;
  // Refused before any model call when today's slots are gone (checked again when storing).
  await sql.begin((tx) => assertCollectionSlot(tx, accountId, nowMs));
  const withText = await countRowsWithText(sql, source.id);
  const params: DatasetParams = {
    max_rows: input.limit ?? source.params.max_rows,
    criterion: input.criterion,
    keep_matching: input.keep_matching,
    sort_by: input.sort_by,
    limit: input.limit ?? null,
  };
  const now = new Date(nowMs);
  const record: NewDataset = {
    id: newDatasetId(),
    owner_id: ctx.principal.userId,
    account_id: accountId,
    source: source.source,
    title: input.title ?? `${source.title} (refined: ${input.criterion})`.slice(0, 300),
    status: "collecting",
    target: source.target,
    target_id: source.target_id,
    parent_id: source.id,
    params,
    quota_day: quotaDayOf(nowMs),
    created_at: now,
    expires_at: expiryOf(nowMs),
  };

  if (withText > SYNC_REFINE_ROWS) {
    await sql
      .begin(async (tx) => {
        await assertCollectionSlot(tx, accountId, nowMs);
        await insertDataset(tx, { ...record, expected_total: withText });
        await enqueueDatasetJob(tx, record.id);
      })
      .catch((error) => {
        if (isUniqueViolation(error, "datasets_one_collecting")) {
          throw new ApiError("collection_in_progress", "This account is already building a dataset in the background; wait until it is ready or failed");
        }
        throw error;
      });
    ctx.reply.status = 202;
    return { data: datasetView(await storedDataset(ctx, record.id)) };
  }

  const verdicts = await judgeAll(sql, model, source.id, input.criterion).catch((error) => {
    throw modelApiError(error) ?? error;
  });
  const refined = await refinedRows(sql, source.id, verdicts, { keep_matching: input.keep_matching, sort_by: input.sort_by, limit: input.limit });
  await sql.begin(async (tx) => {
    await assertCollectionSlot(tx, accountId, nowMs);
    await insertDataset(tx, { ...record, status: "ready", counts: refined.counts, finished_at: now });
    await appendRows(tx, record.id, 0, refined.rows);
    await recordDatasetEvent(tx, record.id, now);
  });
  ctx.reply.status = 201;
  return { data: datasetView(await storedDataset(ctx, record.id)) };
}

async function storedDataset(ctx: AccountContext, id: string): Promise<DatasetRow> {
  const row = await datasetById(ctx.services.sql, id);
  if (!row) throw new Error(`Dataset ${id} vanished right after it was stored`);
  return row;
}

/**
 * Runs (or resumes) a background refine: judges the source's rows with text after the saved
 * cursor in batches, saving the verdicts after each, then writes the kept rows and ends the
 * dataset `ready`. A failure is retried by the job; on the last attempt the dataset ends
 * `failed` with the reason. A source that expired meanwhile fails it at once.
 */
export async function runRefine(deps: JobDeps, dataset: DatasetRow, job: JobRow): Promise<void> {
  try {
    await refineInBackground(deps, dataset);
  } catch (error) {
    if (job.attempts < job.max_attempts) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    await finishDatasetRecorded(deps.sql, dataset.id, { status: "failed", error: `Refine failed: ${reason}`, now: new Date(deps.clock.now()) });
  }
}

async function refineInBackground(deps: JobDeps, dataset: DatasetRow): Promise<void> {
  const { sql, clock, model } = deps;
  const source = dataset.parent_id ? await datasetById(sql, dataset.parent_id) : undefined;
  if (!source || source.expires_at.getTime() <= clock.now()) {
    await finishDatasetRecorded(sql, dataset.id, { status: "failed", error: "The dataset being refined no longer exists", now: new Date(clock.now()) });
    return;
  }
  if (!model) throw new Error("The job runner has no model to judge rows with");
  const criterion = dataset.params.criterion ?? "";
  const cursor: RefineCursor = (dataset.cursor as RefineCursor | null) ?? { after: 0, judged: 0, verdicts: {} };
  let batch: StoredRow[] = [];
  const flush = async (through: number) => {
    if (batch.length > 0) {
      const { verdicts } = await judgeBatch(model, criterion, batch);
      Object.assign(cursor.verdicts, verdicts);
      cursor.judged += batch.length;
    }
    cursor.after = through;
    batch = [];
    await saveProgress(sql, dataset.id, { rowsCollected: cursor.judged, cursor, counts: {}, now: new Date(clock.now()) });
  };
  for await (const row of walkRows(sql, source.id, cursor.after)) {
    if (textOf(row) !== "") batch.push(row);
    if (batch.length === REFINE_BATCH) await flush(row.position);
  }
  if (batch.length > 0) await flush(batch[batch.length - 1].position);

  const refined = await refinedRows(sql, source.id, cursor.verdicts, {
    keep_matching: dataset.params.keep_matching ?? true,
    sort_by: dataset.params.sort_by ?? "none",
    limit: dataset.params.limit,
  });
  // Rows are keyed per dataset: a rerun of this step after a crash stores nothing twice.
  await sql.begin(async (tx) => {
    await appendRows(tx, dataset.id, 0, refined.rows);
    await finishDatasetRecorded(tx, dataset.id, { status: "ready", counts: refined.counts, now: new Date(clock.now()) });
  });
}
