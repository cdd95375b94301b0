/** `GET /v1/me`: who the key belongs to, its plan and limits, and the key itself. */
import type { KeyContext } from "../context.ts";

/** Describes the calling key and its owner. */
export function describeMe(ctx: KeyContext) {
  const { principal } = ctx;
  const { key, plan } = principal;
  return {
    data: {
      owner: { id: String(principal.userId), name: principal.userName, main_account_id: principal.mainAccountId },
      plan: { id: plan.id, label: plan.label, request_limits: plan.buckets },
      subscription: { status: principal.subscriptionStatus },
      onboarded: principal.onboarded,
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
