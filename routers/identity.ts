/** Identity: `GET /v1/accounts`, `GET /v1/me`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { listAccounts } from "../core/accounts/list_accounts.ts";
import { account, listAccountsInput } from "../core/accounts/account_schema.ts";
import { describeMe } from "../core/identity/me.ts";
import { me, meInput } from "../core/identity/me_schema.ts";
import { dataOf } from "../core/schema.ts";

export const identityRouter = router({
  accounts: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/accounts",
        tags: ["Identity"],
        summary: "List the accounts this key can use",
        description:
          "Main account first, then linked and shared accounts. Pagination has no `total`. When linked or shared accounts cannot be verified, answers the main account only with `degraded: true`.",
      },
    })
    .input(listAccountsInput)
    .output(
      z.object({
        data: z.array(account),
        pagination: z.object({ page: z.number().int(), limit: z.number().int(), has_more: z.boolean() }),
        degraded: z.literal(true).optional(),
      }),
    )
    .query(({ ctx, input }) => listAccounts(ctx, input)),

  me: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/me",
        tags: ["Identity"],
        summary: "Describe the key, its owner and plan",
        description:
          "The key (name, shortened display, scopes), its owner, the plan with its request limits, the subscription, onboarding, the AI credit pool (null when it cannot be read) and the post quota of the billing period.",
      },
    })
    .input(meInput)
    .output(dataOf(me))
    .query(({ ctx }) => describeMe(ctx)),
});
