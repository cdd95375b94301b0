/**
 * The background half of a research run of more than 5 profiles (docs/areas.md "Datasets"), run
 * by the `build_dataset` job. The request path already took every allowance and charged 1
 * credit per granted profile (research_costs.ts); the job reads the granted profiles in
 * order, ONE transaction per profile: the row (or the skipped entry and its 1 credit
 * refunded) together with the cursor and counts, under the dataset's row lock, so a crash
 * resumes at the first profile not yet stored and nothing is read into a row or refunded
 * twice. It ends `ready` (a note lists the skipped profiles; a run that read nobody ends
 * `ready` with 0 rows and that note, every credit given back), or `failed` on the job's
 * last attempt with the credits of the profiles not yet read refunded.
 */
import type { JobDeps } from "../jobs/job_deps.ts";
import type { JobRow } from "../jobs/jobs_queries.ts";
import { refundCreditsIn } from "../credits/credits.ts";
import type { CreditOwner } from "../request_state/credit_state.ts";
import { planById } from "../plans/plans.ts";
import { appendRows, type DatasetRow, lastPosition } from "./datasets_queries.ts";
import { finishDatasetRecorded } from "./dataset_events.ts";
import { lockResearchRun, researchedCount, saveResearchStep } from "./research_queries.ts";
import { researchTarget } from "./research_profile.ts";
import { CREDITS_PER_PROFILE } from "./research_costs.ts";
import type { ResearchTarget, SkippedProfile } from "./research_target.ts";

/** What a research dataset keeps in `charges`: whose credits, the reference, the profiles granted and those skipped so far. */
export interface ResearchCharges {
  credits: { reference: string; charged: number };
  owner: { owner_id: string; plan: string; billing_anchor: string };
  targets: ResearchTarget[];
  skipped: SkippedProfile[];
}

/** The credit owner a stored run charged. */
export function ownerOfCharges(charges: ResearchCharges): CreditOwner {
  return { ownerId: charges.owner.owner_id, plan: planById(charges.owner.plan), billingAnchor: new Date(charges.owner.billing_anchor) };
}

/** `Skipped 2 profiles: @a (not_found), 1234 (protected).`, or null when none was. */
export function skippedNote(skipped: readonly SkippedProfile[]): string | null {
  if (skipped.length === 0) return null;
  const names = skipped.map((entry) => `${entry.handle ? `@${entry.handle}` : entry.x_user_id} (${entry.reason})`);
  return `Skipped ${skipped.length} profile${skipped.length === 1 ? "" : "s"}, not charged: ${names.join(", ")}.`;
}

/** Runs (or resumes) the research of `dataset` as the module comment says. */
export async function runResearchJob(deps: JobDeps, dataset: DatasetRow, job: JobRow): Promise<void> {
  const charges = dataset.charges as unknown as ResearchCharges;
  if (!Array.isArray(charges.targets) || !charges.owner) {
    // Not made by startResearch (nothing was granted or charged): nothing to read or refund.
    await finishDatasetRecorded(deps.sql, dataset.id, {
      status: "failed",
      error: "This research run has no profiles to read; start it again",
      now: new Date(deps.clock.now()),
    });
    return;
  }
  const owner = ownerOfCharges(charges);
  try {
    if (!deps.model) throw new Error(`The job runner has no model; research dataset "${dataset.id}" cannot run`);
    const model = deps.model;
    for (;;) {
      const state = await lockResearchRun(deps.sql, dataset.id);
      if (!state) return;
      const next = nextOf(state.cursor);
      if (next >= charges.targets.length) break;
      const now = new Date(deps.clock.now());
      // Read outside the transaction (network and model are slow); the step commits only if
      // no other process stored this profile meanwhile.
      const outcome = await researchTarget({ network: deps.network, model, now }, charges.targets[next], dataset.params.focus ?? null);
      await deps.sql.begin(async (tx) => {
        const locked = await lockResearchRun(tx, dataset.id);
        if (!locked || nextOf(locked.cursor) !== next) return;
        const skipped = [...((locked.charges as unknown as ResearchCharges).skipped ?? [])];
        if ("row" in outcome) {
          await appendRows(tx, dataset.id, await lastPosition(tx, dataset.id), [outcome.row]);
        } else {
          skipped.push(outcome.skipped);
          await refundCreditsIn(tx, owner, { reference: charges.credits.reference, now, amount: CREDITS_PER_PROFILE });
        }
        const researched = await researchedCount(tx, dataset.id);
        await saveResearchStep(tx, dataset.id, { next: next + 1, counts: { researched, skipped: skipped.length }, skipped, rowsCollected: researched, now });
      });
    }
    await deps.sql.begin(async (tx) => {
      const locked = await lockResearchRun(tx, dataset.id);
      if (!locked) return;
      const skipped = (locked.charges as unknown as ResearchCharges).skipped ?? [];
      const researched = await researchedCount(tx, dataset.id);
      const note = researched === 0 ? `No profile could be researched; every credit was returned. ${skippedNote(skipped) ?? ""}`.trim() : skippedNote(skipped);
      await finishDatasetRecorded(tx, dataset.id, { status: "ready", counts: { researched, skipped: skipped.length }, note, now: new Date(deps.clock.now()) });
    });
  } catch (error) {
    if (job.attempts < job.max_attempts) throw error;
    await failRun(deps, dataset.id, owner, charges, error);
  }
}

/** The last attempt failed: the profiles not yet read are refunded and the dataset ends `failed`. */
async function failRun(deps: JobDeps, datasetId: string, owner: CreditOwner, charges: ResearchCharges, error: unknown): Promise<void> {
  const now = new Date(deps.clock.now());
  await deps.sql.begin(async (tx) => {
    const locked = await lockResearchRun(tx, datasetId);
    if (!locked) return;
    const unread = charges.targets.length - nextOf(locked.cursor);
    if (unread > 0) await refundCreditsIn(tx, owner, { reference: charges.credits.reference, now, amount: unread * CREDITS_PER_PROFILE });
    const reason = error instanceof Error ? error.message : String(error);
    await finishDatasetRecorded(tx, datasetId, {
      status: "failed",
      error: `Research stopped: ${reason}; the ${unread} profile(s) not read were refunded`,
      now,
    });
  });
}

function nextOf(cursor: unknown): number {
  const next = (cursor as { next?: unknown } | null)?.next;
  return typeof next === "number" ? next : 0;
}
