/**
 * Runs one model task for a priced (metered) procedure: the model's failure answers
 * its spec code (and the credit step refunds the call in full), its real cost is kept.
 */
import type { Context } from "../context.ts";
import { chargeCall } from "../credits/credit_call.ts";
import type { ModelRequest, ModelResult } from "../model/model.ts";
import { modelApiError } from "../model/model_api_error.ts";

/** Generates, charges what it cost, and answers the result with the credits kept. */
export async function runModel(ctx: Context, request: ModelRequest): Promise<ModelResult & { creditsCharged: number }> {
  let result: ModelResult;
  try {
    result = await ctx.services.model.generate(request);
  } catch (error) {
    throw modelApiError(error) ?? error;
  }
  await chargeCall(ctx, result.costCredits);
  return { ...result, creditsCharged: result.costCredits };
}
