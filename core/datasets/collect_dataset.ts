/**
 * Collections (docs/areas.md "Datasets"; spec rule 8, Limits 7; supplement: Datasets, collection
 * form): the repliers, quoters or reposters of a post, the members of a public X list, or
 * the account's own posts or replies, as a dataset of rows.
 *
 * - A collection that fits one quick read (an expected total of at most one page of 100)
 *   is read at once and answers `201` `ready`; a larger or unsizable one answers `202`
 *   `collecting` with zero rows and the `build_dataset` job walks it (`runCollection`).
 * - Enrichment units (1 for the estimate plus expected pages) are charged before the walk;
 *   `my_posts`/`my_replies` cost none and are always synchronous.
 * - The daily slot is taken in the transaction that stores the dataset; a collection that
 *   matches nobody stores nothing and answers `200` `data: null` with a `note` (in the
 *   background: it ends `ready` with no rows and that note, and gives its slot back).
 * - One background collection per account (`409 collection_in_progress`, from the unique
 *   index `datasets_one_collecting`).
 */
import { finishDatasetRecorded, recordDatasetEvent } from "./dataset_events.ts";
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { isUniqueViolation } from "../db/pg_errors.ts";
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { chargeExtraUnits } from "../limits/extra_units.ts";
import { callNetwork } from "../network/call_network.ts";
import { NetworkNotFoundError, NetworkPrivateError } from "../network/network_errors.ts";
import { releaseCollectionSlot } from "./collection_quota_queries.ts";
import { assertCollectionSlot, quotaDayOf } from "./collection_quota.ts";
import { enrichmentUnitsOf, estimateCollection, expectedReadOf, fitsOneRead } from "./collection_estimate.ts";
import { applicableFilters, filtersNarrow } from "./collection_filters.ts";
import { readOwnContent, DEFAULT_SINCE_DAYS } from "./collection_own_content.ts";
import { collectingDatasetOf, countRows, lockDataset, storedRowKeys } from "./collection_queries.ts";
import { type CollectionRequest, collectionRequest } from "./collection_request.ts";
import { COLLECTION_SCAN_LIMIT, startState, type WalkSpec, type WalkState, walkCollection } from "./collection_walk.ts";
import { expiryOf, newDatasetId } from "./dataset_access.ts";
import { enqueueDatasetJob } from "./dataset_job.ts";
import type { CreateDatasetInput, CreateDatasetOutput } from "./dataset_schema.ts";
import { datasetView } from "./dataset_view.ts";
import {
  appendRows,
  datasetById,
  type DatasetRow,
  insertDataset,
  lastPosition,
  type NewDataset,
  type NewDatasetRow,
  saveProgress,
} from "./datasets_queries.ts";

/**
 * Pages the request path reads for a collection sized at one page: its counter may be a
 * little stale, so a second page (or third) is read rather than moving to the background.
 */
const SYNC_PAGES = 3;

const NOBODY = "Nobody matched: nothing was stored and today's collection slot was given back.";

/** Starts a collection: `201` ready, `202` collecting, or `200` `data: null` when nobody matched. */
export async function startCollection(ctx: AccountContext, input: CreateDatasetInput): Promise<CreateDatasetOutput> {
  const request = collectionRequest(input);
  const { filters, note: ignoredNote } = applicableFilters(request.source, request.filters);
  const checked = { ...request, filters };
  const nowMs = ctx.services.clock.now();
  // Refuse early what the store would refuse later, before any network read or charge.
  await ctx.services.sql.begin((tx) => assertCollectionSlot(tx, ctx.account.id, nowMs));
  if (checked.source === "my_posts" || checked.source === "my_replies") return collectOwnContent(ctx, input, checked, ignoredNote, nowMs);

  const target = checked.target!;
  const network = ctx.services.network;
  const source = checked.source as WalkSpec["source"];
  const estimate = await estimateCollection(network, source, target);
  const background = !fitsOneRead(estimate.expectedTotal);
  if (background) await refuseWhileCollecting(ctx);
  const units = enrichmentUnitsOf(estimate.expectedTotal, expectedReadOf(checked.maxRows, filtersNarrow(filters)));
  const release = await chargeExtraUnits(ctx, ctx.principal, { enrichment: units });
  const meta = { account_id: ctx.account.id, enrichment_units: units };
  const base: NewDataset = {
    id: newDatasetId(),
    owner_id: ctx.principal.userId,
    account_id: ctx.account.id,
    source,
    title: input.title ?? defaultTitle(source, estimate.label),
    status: background ? "collecting" : "ready",
    target: input.target ?? null,
    target_id: target.id,
    params: { max_rows: checked.maxRows, filters: Object.keys(filters).length > 0 ? filters : null },
    expected_total: estimate.expectedTotal,
    charges: { enrichment: units },
    quota_day: quotaDayOf(nowMs),
    note: ignoredNote,
    created_at: new Date(nowMs),
    expires_at: expiryOf(nowMs),
  };
  try {
    if (background) {
      await ctx.services.sql.begin(async (tx) => {
        await assertCollectionSlot(tx, ctx.account.id, nowMs);
        await insertDataset(tx, base);
        await enqueueDatasetJob(tx, base.id);
      });
      ctx.reply.status = 202;
      return { data: datasetView((await datasetById(ctx.services.sql, base.id))!), meta };
    }
    const spec = walkSpec(source, target.id, ctx.account.id, checked.maxRows, filters);
    const state = startState();
    const rows: NewDatasetRow[] = [];
    await callNetwork(() => walkCollection(network, spec, state, new Set(), async (page) => void rows.push(...page), SYNC_PAGES));
    if (rows.length === 0) return nobodyMatched(ctx, ignoredNote, meta);
    const note = joinNotes(ignoredNote, state.done ? null : `Stopped after ${SYNC_PAGES} pages: the ${estimate.label} has more than its count said.`);
    await ctx.services.sql.begin(async (tx) => {
      await assertCollectionSlot(tx, ctx.account.id, nowMs);
      await insertDataset(tx, { ...base, counts: { ...state.counts }, note, finished_at: new Date(nowMs) });
      await appendRows(tx, base.id, 0, rows);
      await recordDatasetEvent(tx, base.id, new Date(nowMs));
    });
    ctx.reply.status = 201;
    return { data: datasetView((await datasetById(ctx.services.sql, base.id))!), meta };
  } catch (error) {
    // Refused after the charge (the day's slots, a collection started meanwhile, a network failure): nothing is kept, so nothing is charged.
    await release();
    if (isUniqueViolation(error, "datasets_one_collecting")) await refuseWhileCollecting(ctx);
    throw error;
  }
}

/** `200` with `data: null` and a note (supplement: "nothing matched: `data: null` plus `note`"); no slot was taken. */
function nobodyMatched(ctx: AccountContext, ignoredNote: string | null, meta: NonNullable<CreateDatasetOutput["meta"]>): CreateDatasetOutput {
  ctx.reply.status = 200;
  return { data: null, note: joinNotes(NOBODY, ignoredNote) ?? NOBODY, meta };
}

/** `409 collection_in_progress` naming the account's running collection, when there is one. */
async function refuseWhileCollecting(ctx: AccountContext): Promise<void> {
  const running = await collectingDatasetOf(ctx.services.sql, ctx.account.id);
  if (!running) return;
  throw new ApiError("collection_in_progress", `Dataset "${running}" is still collecting for this account; poll GET /v1/datasets/${running} until it ends`, {
    dataset_id: running,
  });
}

/** `my_posts` / `my_replies`: synchronous, free of enrichment (supplement: Datasets). */
async function collectOwnContent(ctx: AccountContext, input: CreateDatasetInput, request: CollectionRequest, ignoredNote: string | null, nowMs: number) {
  const source = request.source as "my_posts" | "my_replies";
  const own = await callNetwork(() =>
    readOwnContent(ctx.services.network, { accountId: ctx.account.id, source, filters: request.filters, maxRows: request.maxRows, nowMs }),
  );
  const meta = { account_id: ctx.account.id, enrichment_units: 0 };
  if (own.rows.length === 0) return nobodyMatched(ctx, ignoredNote, meta);
  const days = request.filters.since_days ?? DEFAULT_SINCE_DAYS;
  const id = newDatasetId();
  await ctx.services.sql.begin(async (tx) => {
    await assertCollectionSlot(tx, ctx.account.id, nowMs);
    await insertDataset(tx, {
      id,
      owner_id: ctx.principal.userId,
      account_id: ctx.account.id,
      source,
      title: input.title ?? `My ${source === "my_posts" ? "posts" : "replies"} (last ${days} days)`,
      status: "ready",
      params: { max_rows: request.maxRows, filters: Object.keys(request.filters).length > 0 ? request.filters : null },
      expected_total: own.total,
      counts: { ...own.counts },
      quota_day: quotaDayOf(nowMs),
      note: ignoredNote,
      created_at: new Date(nowMs),
      finished_at: new Date(nowMs),
      expires_at: expiryOf(nowMs),
    });
    await appendRows(tx, id, 0, own.rows);
    await recordDatasetEvent(tx, id, new Date(nowMs));
  });
  ctx.reply.status = 201;
  return { data: datasetView((await datasetById(ctx.services.sql, id))!), meta };
}

/**
 * Runs (or resumes) a background collection: pages of 100, each committed with the cursor
 * of the next in one transaction, so a crashed job resumes from the last committed page
 * (and rows are unique by key, so a reread page adds nothing). Ends `ready`, or `failed` on
 * the job's last attempt (a post or list gone since is `failed` at once).
 */
export async function runCollection(deps: JobDeps, dataset: DatasetRow, job: JobRow): Promise<void> {
  const now = () => new Date(deps.clock.now());
  const filters = (dataset.params.filters ?? {}) as WalkSpec["filters"];
  const spec = walkSpec(dataset.source as WalkSpec["source"], dataset.target_id!, dataset.account_id, dataset.params.max_rows, filters);
  const saved = dataset.cursor as WalkState | null;
  const state: WalkState = saved ? { next: saved.next, counts: { ...saved.counts }, done: false } : startState();
  const seen = new Set(await storedRowKeys(deps.sql, dataset.id));
  try {
    await walkCollection(deps.network, spec, state, seen, (rows, page) =>
      deps.sql.begin(async (tx) => {
        // Purged or ended meanwhile: nothing more to write.
        if ((await lockDataset(tx, dataset.id)) !== "collecting") return;
        await appendRows(tx, dataset.id, await lastPosition(tx, dataset.id), rows);
        await saveProgress(tx, dataset.id, {
          rowsCollected: await countRows(tx, dataset.id),
          cursor: { next: page.next, counts: page.counts },
          counts: { ...page.counts },
          now: now(),
        });
      }),
    );
  } catch (error) {
    const gone = error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError;
    if (!gone && job.attempts < job.max_attempts) throw error;
    const what = gone
      ? "the post or list is no longer readable"
      : `the network kept failing (${error instanceof Error ? error.message.slice(0, 200) : "unknown error"})`;
    await deps.sql.begin(async (tx) => {
      // Spec silent on a failed collection's slot: it is given back, as it gave the user nothing to use.
      if (
        await finishDatasetRecorded(tx, dataset.id, { status: "failed", counts: { ...state.counts }, error: `The collection failed: ${what}.`, now: now() })
      ) {
        await releaseCollectionSlot(tx, dataset.id);
      }
    });
    return;
  }
  await deps.sql.begin(async (tx) => {
    if (state.counts.matched === 0) {
      // Spec Limits 7: "a collection matching nobody returns its slot"; it ends ready and empty.
      if (
        await finishDatasetRecorded(tx, dataset.id, {
          status: "ready",
          counts: { ...state.counts },
          note: joinNotes(NOBODY.replace("nothing was stored and ", ""), dataset.note),
          now: now(),
        })
      ) {
        await releaseCollectionSlot(tx, dataset.id);
      }
      return;
    }
    await finishDatasetRecorded(tx, dataset.id, { status: "ready", counts: { ...state.counts }, now: now() });
  });
}

function walkSpec(source: WalkSpec["source"], targetId: string, selfId: string, maxRows: number, filters: WalkSpec["filters"]): WalkSpec {
  return { source, targetId, selfId, maxRows, filters, scanLimit: COLLECTION_SCAN_LIMIT };
}

const TITLE: Record<WalkSpec["source"], string> = {
  repliers: "Repliers of",
  quoters: "Quoters of",
  reposters: "Reposters of",
  list_members: "Members of",
};

function defaultTitle(source: WalkSpec["source"], label: string): string {
  return `${TITLE[source]} ${label}`.slice(0, 300);
}

function joinNotes(...notes: (string | null | undefined)[]): string | null {
  const kept = notes.filter((note): note is string => Boolean(note));
  return kept.length > 0 ? kept.join(" ") : null;
}
