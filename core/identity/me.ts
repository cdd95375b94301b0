/** `GET /v1/me`: who the key belongs to, its plan and limits, the credit pool, and the key itself. */
import type { KeyContext } from "../context.ts";
import { creditOwner, creditState } from "../credits/credits.ts";
import type { CreditState } from "../request_state/credit_state.ts";
import { postQuotaOf } from "../post_quota/post_quota.ts";

/** Describes the calling key and its owner. */
export async function describeMe(ctx: KeyContext) {
  const { principal } = ctx;
  const { key, plan } = principal;
  // A pool that cannot be read is reported as unknown rather than failing the whole answer.
  const credits = await creditState(ctx, creditOwner(principal)).catch(() => undefined);
  const posts = await postQuotaOf(ctx.services.sql, principal.mainAccountId, new Date(ctx.services.clock.now()));
  return {
    data: {
      owner: { id: String(principal.userId), name: principal.userName, main_account_id: principal.mainAccountId },
      plan: { id: plan.id, label: plan.label, request_limits: plan.buckets },
      subscription: { status: principal.subscriptionStatus },
      onboarded: principal.onboarded,
      credits: credits ? describeCredits(credits) : null,
      post_quota: {
        limit: posts.limit,
        used: posts.used,
        remaining: Math.max(posts.limit - posts.used, 0),
        period_start: posts.periodStart.toISOString(),
        period_end: posts.periodEnd.toISOString(),
      },
      key: {
        id: key.id,
        name: key.name,
        display: key.display,
        scopes: key.scopes,
        created_at: key.createdAt.toISOString(),
        last_used_at: key.lastUsedAt?.toISOString() ?? null,
      },
    },
  };
}

function describeCredits(state: CreditState) {
  return {
    remaining: state.remaining,
    pool: state.pool,
    bonus: state.bonus,
    used: state.spent,
    period: state.period,
    period_start: state.periodStart.toISOString(),
    period_end: state.resetAt.toISOString(),
  };
}
