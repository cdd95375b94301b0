/** The Account record (spec: Account; supplement: GET /v1/accounts). */
import { z } from "zod";
import { paginationInput } from "../schema.ts";

/** `GET /v1/accounts`: the page. */
export const listAccountsInput = z.object(paginationInput(100)).prefault({});

/** The list's page, parsed. */
export type ListAccountsInput = z.infer<typeof listAccountsInput>;

/** An account's X authorisation as listed: never the tokens. */
export const xConnection = z.object({
  kind: z.enum(["oauth2", "oauth1"]).meta({
    description:
      "`oauth2`: connected through X's consent screen, refreshed as it expires; `oauth1`: an OAuth 1.0a access token an operator stored, which does not expire",
  }),
  status: z.enum(["connected", "reauth_required"]).meta({
    description: "`reauth_required`: X refused to refresh its token; publishing and DMs wait until it is connected again",
  }),
  reason: z.string().nullable().meta({ description: "Why it needs connecting again" }),
  scopes: z.array(z.string()).meta({ description: "The OAuth 2.0 scopes X granted" }),
  access_expires_at: z.string().nullable().meta({ description: "When the current access token expires; it is refreshed before then (null for `oauth1`)" }),
  connected_at: z.string(),
  refreshed_at: z.string().nullable(),
});

/** An account as listed by `GET /v1/accounts`. */
export const account = z
  .object({
    id: z.string().meta({ description: "Numeric text id" }),
    username: z.string(),
    name: z.string(),
    avatar_url: z.string(),
    is_main: z.boolean(),
    relation: z.enum(["main", "linked", "shared", "linked_shared"]).meta({ description: "How the key reaches this account" }),
    shared: z.boolean().meta({ description: "Shared with you by another user (read-only except context and queue settings)" }),
    permission: z.enum(["viewer", "editor"]).nullable().meta({ description: "Share permission; null for your own accounts" }),
    x_connection: xConnection
      .nullable()
      .meta({ description: "Beyond the spec: the account's X authorisation on this server (`POST /v1/accounts/connect`); null when never connected" }),
  })
  .meta({ id: "Account" });
