/** Identity: `GET /v1/accounts`, `POST /v1/accounts/connect`, `GET /v1/me`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { listAccounts } from "../core/accounts/list_accounts.ts";
import { account, listAccountsInput } from "../core/accounts/account_schema.ts";
import { describeMe } from "../core/identity/me.ts";
import { me, meInput } from "../core/identity/me_schema.ts";
import { dataOf } from "../core/schema.ts";
import { startConnect } from "../core/accounts/connect_start.ts";
import { connectStart, startConnectInput } from "../core/accounts/connect_schema.ts";

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

  connect: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/accounts/connect",
        tags: ["Identity"],
        summary: "Start connecting an X account",
        description:
          "Answers `authorize_url`, X's consent screen for the operator's X app (OAuth 2.0 with PKCE). The person who owns the X account opens it and " +
          "approves; X sends the browser back to `callback_url` (`GET /connect/x/callback`, outside `/v1`), which connects the account that approved: " +
          "your main account when it is that X account, else a linked account (created when new). A reconnect replaces the tokens and keeps a " +
          "refresh token X did not replace. The link works once, for 10 minutes. The tokens are stored sealed and never answered. Needs the " +
          "operator's `X_CLIENT_ID` (`503 x_oauth_not_configured` without it).",
      },
      beyondSpec: "The spec's accounts come from the companion app; a self-hosted server connects them to X itself.",
      errors: ["x_oauth_not_configured"],
    })
    .input(startConnectInput)
    .output(dataOf(connectStart))
    .mutation(({ ctx }) => startConnect(ctx)),

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
