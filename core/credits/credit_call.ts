/**
 * The credit step of the request path (ARCHITECTURE step 8; spec: Credit headers, AI
 * credits): a procedure declares its pricing in meta and this runs the charge around
 * the handler. `X-Credits-Charged` is the credits kept for the call, absent on free
 * calls and on `202` answers that settle in the background; `X-Credits-Remaining` and
 * `X-Credits-Reset` (Unix seconds) are always sent.
 */
import type { Context } from "../context.ts";
import type { Principal } from "../request_state/principal.ts";
import type { CreditCall, CreditState } from "../request_state/credit_state.ts";
import { assertCredits, chargeCredits, creditOwner, creditState, refundCredits } from "./credits.ts";

/**
 * How a procedure is priced: `free` (no charge, still the two headers), `{ flat: n }`
 * (kept up front, refunded in full when the call fails), or `{ metered: minimum }`
 * (the handler charges what it really cost via `ctx.credits`; refused up front when
 * fewer than `minimum` remain; refunded in full when the call fails).
 */
export type Pricing = "free" | { flat: number } | { metered: number };

/** Runs `call` under `pricing`, setting the credit headers on the context. */
export async function withCredits<T extends { ok: boolean }>(
  ctx: Context,
  principal: Principal,
  options: { pricing: Pricing; procedure: string; background: boolean },
  call: (credits: CreditCall) => Promise<T>,
): Promise<T> {
  const owner = creditOwner(principal);
  const credits: CreditCall = { owner, reference: `${options.procedure}:${crypto.randomUUID()}`, kept: 0 };
  const { pricing } = options;
  if (pricing === "free") {
    const result = await call(credits);
    setCreditHeaders(ctx, await creditState(ctx, owner).catch(() => undefined), undefined);
    return result;
  }
  if ("flat" in pricing) {
    credits.state = await chargeCredits(ctx, owner, { amount: pricing.flat, reference: credits.reference, procedure: options.procedure });
    credits.kept = pricing.flat;
  } else {
    credits.state = await assertCredits(ctx, owner, pricing.metered);
  }
  const result = await call(credits);
  if (!result.ok && credits.kept > 0) {
    if (ctx.reply.jobSettlesCredits) {
      // The job keeps or refunds them (ctx.reply); the headers show the pool as it is now.
      credits.state = await creditState(ctx, owner).catch(() => credits.state);
    } else {
      credits.state = await refundCredits(ctx, owner, { reference: credits.reference });
      credits.kept = 0;
    }
  }
  // A handler that chose `202` (ctx.reply) settles in the background too (spec: Credit headers).
  const background = options.background || ctx.reply.status === 202 || (!result.ok && ctx.reply.jobSettlesCredits === true);
  setCreditHeaders(ctx, credits.state, background ? undefined : credits.kept);
  if (credits.kept > 0) ctx.services.telemetry?.creditsCharged(credits.kept, options.procedure);
  return result;
}

/**
 * Sets the credit headers for a handler that charges credits itself (research: charged
 * profile by profile, no `meta.credits`): `charged` undefined leaves `X-Credits-Charged`
 * out (a `202` settling in the background).
 */
export function setCreditHeaders(ctx: Context, state: CreditState | undefined, charged: number | undefined): void {
  if (charged !== undefined) ctx.responseHeaders.set("X-Credits-Charged", String(charged));
  if (!state) return;
  ctx.responseHeaders.set("X-Credits-Remaining", String(state.remaining));
  ctx.responseHeaders.set("X-Credits-Reset", String(Math.floor(state.resetAt.getTime() / 1000)));
}

/**
 * Keeps `amount` credits for the running metered call. The model has already been
 * paid for, so this may overdraw the pool (the up-front check bounded the risk).
 */
export async function chargeCall(ctx: Context, amount: number): Promise<CreditState> {
  const credits = ctx.credits;
  if (!credits) throw new Error("chargeCall outside a metered procedure (meta.credits)");
  credits.state = await chargeCredits(ctx, credits.owner, { amount, reference: credits.reference, allowOverdraw: true });
  credits.kept += amount;
  return credits.state;
}
