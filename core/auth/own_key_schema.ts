/** The shapes of a user's own key management (`/v1/keys`, beyond the spec: its companion app's API tab). */
import { z } from "zod";
import { integerId, paginationInput } from "../schema.ts";

/** A key as listed: never the key itself, only its display form. */
export const apiKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    display: z.string().meta({ description: "The key's prefix and last characters, to recognise it" }),
    scopes: z.array(z.enum(["read", "write"])),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    current: z.boolean().meta({ description: "Whether this is the key the request was made with" }),
  })
  .meta({ id: "ApiKey" });

/** A key just issued: the only answer that holds the key. */
export const issuedApiKey = apiKey.extend({ key: z.string().meta({ description: "The full key: shown once, stored hashed" }) });

export const listKeysInput = z.object({ ...paginationInput(20) }).prefault({});
export type ListKeysInput = z.infer<typeof listKeysInput>;

export const createKeyInput = z.object({
  name: z.string().trim().min(1, "must be 1 to 100 characters").max(100, "must be 1 to 100 characters"),
  scopes: z
    .array(z.enum(["read", "write"], { error: "must be read or write" }))
    .min(1)
    .max(2)
    .optional()
    .meta({ description: '`["read"]` or `["read", "write"]` (default; write implies read)' }),
});
export type CreateKeyInput = z.infer<typeof createKeyInput>;

export const keyByIdInput = z.object({ id: integerId });
export type KeyByIdInput = z.infer<typeof keyByIdInput>;
