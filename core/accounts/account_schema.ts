/** The Account record (spec: Account; supplement: GET /v1/accounts). */
import { z } from "zod";
import { paginationInput } from "../schema.ts";

/** `GET /v1/accounts`: the page. */
export const listAccountsInput = z.object(paginationInput(100)).prefault({});

/** The list's page, parsed. */
export type ListAccountsInput = z.infer<typeof listAccountsInput>;

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
  })
  .meta({ id: "Account" });
