/**
 * Research (docs/areas.md "Datasets"; spec rules 7-8, Limits 7, 8, 11, AI credits, Credit headers;
 * supplement: Datasets research form, 3.2 "up to 25 profiles", 3.3 "flat 1 per profile
 * actually researched; the rest refunded"). `POST /v1/datasets` with `source: research`:
 *
 * - The request is read into profiles (research_sources.ts) and every allowance is taken
 *   here, in the request path (research_costs.ts); then 1 credit per granted profile is
 *   charged up front under one reference kept in the dataset's `charges`.
 * - Up to 5 granted profiles run now: `201` with the dataset `ready`, `meta.credits_charged`
 *   (profiles researched), `meta.skipped`, and the credits of the others refunded.
 * - More than 5: `202` with the dataset `collecting` (0 rows, `expected_total`), its
 *   `build_dataset` job enqueued in the same transaction (research_run.ts finishes it).
 * - Nobody granted or researched: `200` with `data: null`, a `note`, `meta.skipped`, every
 *   credit returned, nothing stored.
 *
 * Credit headers: `X-Credits-Charged` (what was kept) on `200`/`201`; only Remaining and
 * Reset on `202` (spec: Credit headers). Research takes no daily collection slot and runs
 * beside a background collection (Limits 7; index `datasets_one_collecting`).
 */
import { recordDatasetEvent } from "./dataset_events.ts";
import type { AccountContext } from "../context.ts";
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { chargeCredits, creditOwner, creditState, refundCredits } from "../credits/credits.ts";
import type { CreditState } from "../request_state/credit_state.ts";
import { setCreditHeaders } from "../credits/credit_call.ts";
import { networkApiError } from "../network/network_api_error.ts";
import { expiryOf, newDatasetId } from "./dataset_access.ts";
import { enqueueDatasetJob } from "./dataset_job.ts";
import { type CreateDatasetInput, type CreateDatasetOutput, SYNC_RESEARCH_PROFILES } from "./dataset_schema.ts";
import { datasetView } from "./dataset_view.ts";
import { appendRows, datasetById, type DatasetRow, insertDataset, type NewDataset, type NewDatasetRow } from "./datasets_queries.ts";
import { CREDITS_PER_PROFILE, type ResearchGrant, takeResearchAllowances } from "./research_costs.ts";
import { researchTarget } from "./research_profile.ts";
import { type ResearchCharges, runResearchJob, skippedNote } from "./research_run.ts";
import { type ResearchPlan, researchPlan } from "./research_sources.ts";
import type { SkippedProfile } from "./research_target.ts";

/** Starts a research run (see the module comment). */
export async function startResearch(ctx: AccountContext, input: CreateDatasetInput): Promise<CreateDatasetOutput> {
  const plan = await researchPlan(ctx, input);
  if (plan.targets.length === 0) return nothingResearched(ctx, "There is no one to research: the source holds no people.", [], undefined);
  const grant = await takeResearchAllowances(ctx, plan.targets);
  if (grant.granted.length === 0) {
    return nothingResearched(ctx, "No profile was read: the daily live allowance is used up (Limits 8). Nothing was charged.", grant.skipped, undefined);
  }
  const owner = creditOwner(ctx.principal);
  const reference = `datasets.research:${crypto.randomUUID()}`;
  const amount = grant.granted.length * CREDITS_PER_PROFILE;
  try {
    await chargeCredits(ctx, owner, { amount, reference, procedure: "datasets.create" });
  } catch (error) {
    await grant.releaseGranted();
    throw error;
  }
  const charges: ResearchCharges = {
    credits: { reference, charged: amount },
    owner: { owner_id: owner.ownerId, plan: owner.plan.id, billing_anchor: owner.billingAnchor.toISOString() },
    targets: grant.granted,
    skipped: grant.skipped,
  };
  try {
    return grant.granted.length > SYNC_RESEARCH_PROFILES ? await startInBackground(ctx, plan, charges) : await researchNow(ctx, plan, grant, charges);
  } catch (error) {
    // Nothing was stored: every credit and unit of the call goes back.
    await refundCredits(ctx, owner, { reference }).catch(() => undefined);
    await grant.releaseGranted();
    throw networkApiError(error);
  }
}

/** Runs (or resumes) a background research run (research_run.ts). */
export async function runResearch(deps: JobDeps, dataset: DatasetRow, job: JobRow): Promise<void> {
  return runResearchJob(deps, dataset, job);
}

/** Up to 5 profiles: researched in the request; `201` ready, or `200` `data: null` when nobody could be. */
async function researchNow(ctx: AccountContext, plan: ResearchPlan, grant: ResearchGrant, charges: ResearchCharges): Promise<CreateDatasetOutput> {
  const { services } = ctx;
  const now = new Date(services.clock.now());
  const rows: NewDatasetRow[] = [];
  const skipped: SkippedProfile[] = [];
  for (const target of grant.granted) {
    const outcome = await researchTarget({ network: services.network, model: services.model, now }, target, plan.params.focus ?? null);
    if ("row" in outcome) rows.push(outcome.row);
    else skipped.push(outcome.skipped);
  }
  const allSkipped = [...skipped, ...grant.skipped];
  const owner = creditOwner(ctx.principal);
  const unread = (grant.granted.length - rows.length) * CREDITS_PER_PROFILE;
  let state = unread > 0 ? await refundCredits(ctx, owner, { reference: charges.credits.reference, amount: unread }) : undefined;
  if (rows.length === 0) return nothingResearched(ctx, "No profile could be researched; every credit was returned and nothing was stored.", allSkipped, state);
  const dataset = researchDataset(ctx, plan, now, {
    status: "ready",
    expected_total: grant.granted.length,
    counts: { researched: rows.length, skipped: allSkipped.length },
    charges: { ...charges, skipped: allSkipped } as never,
    note: skippedNote(allSkipped),
    finished_at: now,
  });
  await services.sql.begin(async (tx) => {
    await insertDataset(tx, dataset);
    await appendRows(tx, dataset.id, 0, rows);
    await recordDatasetEvent(tx, dataset.id, now);
  });
  const stored = await datasetById(services.sql, dataset.id);
  state ??= await creditState(ctx, owner).catch(() => undefined);
  const charged = rows.length * CREDITS_PER_PROFILE;
  setCreditHeaders(ctx, state, charged);
  ctx.reply.status = 201;
  return { data: datasetView(stored as DatasetRow), meta: { account_id: ctx.account.id, credits_charged: charged, skipped: allSkipped } };
}

/** More than 5 profiles: stored `collecting` with its job in one transaction; `202`. */
async function startInBackground(ctx: AccountContext, plan: ResearchPlan, charges: ResearchCharges): Promise<CreateDatasetOutput> {
  const { services } = ctx;
  const now = new Date(services.clock.now());
  const dataset = researchDataset(ctx, plan, now, {
    status: "collecting",
    expected_total: charges.targets.length,
    counts: { researched: 0, skipped: charges.skipped.length },
    charges: charges as never,
  });
  await services.sql.begin(async (tx) => {
    await insertDataset(tx, dataset);
    await enqueueDatasetJob(tx, dataset.id);
  });
  const stored = await datasetById(services.sql, dataset.id);
  setCreditHeaders(ctx, await creditState(ctx, creditOwner(ctx.principal)).catch(() => undefined), undefined);
  ctx.reply.status = 202;
  return { data: datasetView(stored as DatasetRow), meta: { account_id: ctx.account.id, skipped: charges.skipped } };
}

/** The research record either start stores: what differs between `ready` now and `collecting` for the job comes in `fields`. */
function researchDataset(ctx: AccountContext, plan: ResearchPlan, now: Date, fields: Pick<NewDataset, "status"> & Partial<NewDataset>): NewDataset {
  return {
    id: newDatasetId(),
    owner_id: ctx.principal.userId,
    account_id: ctx.account.id,
    source: "research",
    title: plan.title,
    params: plan.params,
    parent_id: plan.parentId,
    created_at: now,
    expires_at: expiryOf(now.getTime()),
    ...fields,
  };
}

/** `200` with `data: null`: nothing stored, nothing kept (Limits 8: "a run reading nothing answers 200 with data: null and credits returned"). */
async function nothingResearched(ctx: AccountContext, note: string, skipped: SkippedProfile[], state: CreditState | undefined): Promise<CreateDatasetOutput> {
  setCreditHeaders(ctx, state ?? (await creditState(ctx, creditOwner(ctx.principal)).catch(() => undefined)), 0);
  ctx.reply.status = 200;
  return { data: null, note, meta: { account_id: ctx.account.id, credits_charged: 0, skipped } };
}
