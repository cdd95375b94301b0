/**
 * `POST /v1/datasets/{id}/outreach-drafts` (spec: Datasets; Outreach drafts result; rule 7
 * "Outreach drafts are stored as text on a dataset; a person sends them from the companion
 * app"; AI credits; Errors `generation_failed` "every draft failed; nothing charged").
 * In order:
 *
 * 1. The dataset: the caller's (`404 not_found`), `ready` (`409 dataset_not_ready` with
 *    `error.dataset_status`), then `source: research` (`400 invalid_parameter`): a failed
 *    collection answers its state, which is what a client can act on.
 * 2. One run of the plan's daily `outreach_drafts` cap (`429 ai_action_limited`).
 * 3. One `outreach_message` call per row, `DRAFT_CONCURRENCY` at a time, with the
 *    recipient, the first usable stored hook (none: a generic message with no personal
 *    claims), the account's products, the format and the instructions.
 * 4. Each draft is judged: naming another recipient's `@handle` discards it
 *    (`contaminated`); a model failure for the row is `failed`; over 500 characters is
 *    counted in `long_messages` and kept.
 * 5. Every row is written at once: its new message, or none (its previous one cleared).
 *    When no row got a message, nothing is written, the cap run goes back and nothing is
 *    charged: `502 generation_failed` (or `503 upstream_unavailable` when the model could
 *    not be used at all). An error answer changes no row: the spec's "nothing charged"
 *    reads as "the call did nothing", so the previous drafts stay.
 * 6. Credits: the calls' measured cost summed in exact cents and rounded once, at least 1.
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { activeProducts } from "../account_context/context_queries.ts";
import { chargeCall } from "../credits/credit_call.ts";
import { consumeAllowances, releaseAllowances } from "../limits/allowances.ts";
import { dailyActionCap } from "../limits/allowance_catalog.ts";
import { actionCapError } from "../limits/allowance_errors.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { ModelCapabilityError, ModelError, ModelUnavailableError } from "../model/model_errors.ts";
import { creditsForCents } from "../model/model_pricing.ts";
import type { ProductContext } from "../model/task_inputs.ts";
import { mapBounded } from "../concurrency/map_bounded.ts";
import { findDataset, requireReady } from "./dataset_access.ts";
import { rowsAfter, type StoredRow } from "./datasets_queries.ts";
import { handlesOf, LONG_MESSAGE_CHARS, namesAnyOf, otherHandles, shortened, usableHook } from "./outreach_checks.ts";
import { type RowDraft, writeDrafts } from "./outreach_queries.ts";
import type { OutreachDraftsInput, OutreachDraftsOutput } from "./outreach_schema.ts";

/** Rows drafted at once: 25 rows take a few round trips of a remote model, not 25. */
export const DRAFT_CONCURRENCY = 5;

/** Bound on one row's model call; a row past it is `failed`, the others go on. */
const ROW_TIMEOUT_MS = 30_000;

/** Drafts shown in `sample_messages`. */
const SAMPLES = 3;

/** How one row came out. */
type RowOutcome =
  | { row: StoredRow; kind: "drafted" | "generic"; message: string; cents: number }
  | { row: StoredRow; kind: "contaminated"; cents: number }
  | { row: StoredRow; kind: "failed"; error: ModelError };

/** Drafts a message for every row of the dataset (see the order above). */
export async function draftOutreach(ctx: AccountContext, input: OutreachDraftsInput): Promise<OutreachDraftsOutput> {
  const dataset = requireReady(await findDataset(ctx, input.id));
  if (dataset.source !== "research") {
    throw new ApiError(
      "invalid_parameter",
      `Outreach drafts need a research dataset (source "research"); dataset "${dataset.id}" has source "${dataset.source}". Research its people first with POST /v1/datasets`,
    );
  }
  const owner = ctx.principal.mainAccountId;
  const cap = [{ spec: dailyActionCap("outreach_drafts", ctx.principal.plan.id), units: 1 }];
  const outcome = await consumeAllowances(ctx, owner, cap);
  if (outcome.status !== "allowed") throw actionCapError(outcome);

  const rows = await allRows(ctx, dataset.id);
  const handles = handlesOf(rows);
  const products = await productsOf(ctx);
  const outcomes = await mapBounded(rows, DRAFT_CONCURRENCY, (row) => draftRow(ctx, input, row, otherHandles(handles, row.handle), products));

  const stored = outcomes.filter((outcome) => outcome.kind === "drafted" || outcome.kind === "generic");
  if (stored.length === 0) {
    // Nothing drafted: the run is given back (an empty dataset answers its zero counts).
    await releaseAllowances(ctx, owner, cap, { chargedAt: outcome.checkedAt });
    if (rows.length > 0) throw nothingDrafted(outcomes);
  }
  const drafts: RowDraft[] = outcomes.map((outcome) =>
    outcome.kind === "drafted" || outcome.kind === "generic"
      ? { position: outcome.row.position, message: outcome.message, kind: outcome.kind }
      : { position: outcome.row.position, message: null, kind: null },
  );
  await writeDrafts(ctx.services.sql, dataset.id, drafts, new Date(ctx.services.clock.now()));

  const cents = outcomes.reduce((sum, outcome) => sum + ("cents" in outcome ? outcome.cents : 0), 0);
  // Something was stored: the measured cost, at least 1 (supplement 3.3: "measured, usually 1-3").
  const credits = stored.length > 0 ? Math.max(1, creditsForCents(cents)) : 0;
  if (credits > 0) await chargeCall(ctx, credits);

  const count = (kind: RowOutcome["kind"]) => outcomes.filter((outcome) => outcome.kind === kind).length;
  const data = {
    dataset_id: dataset.id,
    title: dataset.title,
    total: rows.length,
    drafted: count("drafted"),
    generic: count("generic"),
    failed: count("failed"),
    contaminated: count("contaminated"),
    long_messages: stored.filter((outcome) => "message" in outcome && outcome.message.length > LONG_MESSAGE_CHARS).length,
    sample_messages: stored.slice(0, SAMPLES).map((outcome) => ({
      handle: outcome.row.handle,
      message: "message" in outcome ? shortened(outcome.message) : "",
    })),
  };
  return { data, meta: { credits_charged: ctx.credits?.kept ?? credits, account_id: ctx.account.id }, note: noteOf(data) };
}

async function draftRow(
  ctx: AccountContext,
  input: OutreachDraftsInput,
  row: StoredRow,
  others: ReadonlySet<string>,
  products: ProductContext[],
): Promise<RowOutcome> {
  const hook = usableHook(row, others);
  try {
    const result = await ctx.services.model.generate({
      task: "outreach_message",
      input: {
        format: input.format,
        ...(input.instructions?.trim() ? { instructions: input.instructions } : {}),
        recipient: { handle: row.handle, name: row.name, bio: row.bio },
        hook,
        ...(products.length > 0 ? { products } : {}),
      },
      timeoutMs: ROW_TIMEOUT_MS,
    });
    const cents = result.costCents ?? result.costCredits;
    const message = result.text.trim();
    // Spec: "A message naming a different recipient's handle is discarded (counted in `contaminated`)".
    if (namesAnyOf(message, others)) return { row, kind: "contaminated", cents };
    return { row, kind: hook ? "drafted" : "generic", message, cents };
  } catch (error) {
    if (error instanceof ModelError) return { row, kind: "failed", error };
    throw error;
  }
}

/**
 * The answer when no row got a message: the model could not be used at all (unreachable,
 * not configured, or the local engine cannot follow the instructions) answers what that
 * failure answers everywhere; anything else is `502 generation_failed` ("every draft
 * failed; nothing charged").
 */
function nothingDrafted(outcomes: readonly RowOutcome[]): ApiError {
  const errors = outcomes.flatMap((outcome) => (outcome.kind === "failed" ? [outcome.error] : []));
  const unusable =
    errors.length === outcomes.length && errors.every((error) => error instanceof ModelUnavailableError || error instanceof ModelCapabilityError);
  if (unusable) return modelApiError(errors[0]) ?? new ApiError("upstream_unavailable", errors[0].message);
  const contaminated = outcomes.length - errors.length;
  const why = contaminated > 0 ? `${errors.length} failed and ${contaminated} named another recipient` : "the model produced no usable draft";
  return new ApiError("generation_failed", `Every draft failed (${why}); nothing was charged and the rows keep their previous messages. Retry the call`);
}

async function allRows(ctx: AccountContext, datasetId: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for (;;) {
    const page = await rowsAfter(ctx.services.sql, datasetId, rows.at(-1)?.position ?? 0, 100);
    rows.push(...page);
    if (page.length < 100) return rows;
  }
}

async function productsOf(ctx: AccountContext): Promise<ProductContext[]> {
  return (await activeProducts(ctx.services.sql, ctx.account.id)).flatMap((product) =>
    product.name ? [{ name: product.name, description: product.description, positioning: product.positioning, url: product.url }] : [],
  );
}

function noteOf(data: OutreachDraftsOutput["data"]): string {
  const stored = data.drafted + data.generic;
  const parts = [
    `${stored} of ${data.total} messages written onto the rows (${data.drafted} personalised from a hook quote, ${data.generic} generic); read them with GET /v1/datasets/${data.dataset_id}/rows. Nothing was sent: a person sends them from the companion app, filling [name], [first] and [handle] at send time.`,
  ];
  if (data.failed + data.contaminated > 0) {
    parts.push(
      `${data.failed + data.contaminated} rows have no message (${data.failed} failed, ${data.contaminated} named another recipient and were discarded); rerun to retry.`,
    );
  }
  if (data.long_messages > 0) parts.push(`${data.long_messages} drafts are over ${LONG_MESSAGE_CHARS} characters.`);
  parts.push("A rerun overwrites every draft.");
  return parts.join(" ");
}
