/** API keys of the caller's own user: `GET/POST /v1/keys`, `POST /v1/keys/{id}/rotate`, `DELETE /v1/keys/{id}`. */
import { z } from "zod";
import { keyProcedure, router } from "../core/trpc.ts";
import { dataOf, listOf } from "../core/schema.ts";
import { apiKey, createKeyInput, issuedApiKey, keyByIdInput, listKeysInput } from "../core/auth/own_key_schema.ts";
import { createOwnKey, listOwnKeys, revokeOwnKey, rotateOwnKey } from "../core/auth/own_keys.ts";

const BEYOND_SPEC = "The spec's keys are managed in its companion app; here the API and its console manage them.";

export const keysRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/keys",
        tags: ["Keys"],
        summary: "List your active API keys",
        description: "Newest first, with name, display form, scopes, creation and last use; `current` marks the key of the request. Never the keys themselves.",
      },
      beyondSpec: BEYOND_SPEC,
    })
    .input(listKeysInput)
    .output(listOf(apiKey))
    .query(({ ctx, input }) => listOwnKeys(ctx, input)),

  create: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/keys",
        tags: ["Keys"],
        summary: "Create an API key",
        description:
          'Answers the full key once (`key`); it is stored hashed. `scopes` `["read"]` or `["read", "write"]` (default). At most 10 active keys per user (`403 cap_reached`).',
      },
      beyondSpec: BEYOND_SPEC,
      successStatus: 201,
      errors: ["cap_reached"],
    })
    .input(createKeyInput)
    .output(dataOf(issuedApiKey))
    .mutation(({ ctx, input }) => createOwnKey(ctx, input)),

  rotate: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/keys/{id}/rotate",
        tags: ["Keys"],
        summary: "Rotate an API key",
        description:
          "Issues a replacement with the same name and scopes (its full key answered once) and revokes the old key in the same transaction; the old key answers `401 invalid_api_key` from then on, on every process within 30 s.",
      },
      beyondSpec: BEYOND_SPEC,
      errors: ["not_found"],
    })
    .input(keyByIdInput)
    .output(dataOf(issuedApiKey))
    .mutation(({ ctx, input }) => rotateOwnKey(ctx, input)),

  revoke: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/keys/{id}",
        tags: ["Keys"],
        summary: "Revoke an API key",
        description:
          "The key answers `401 invalid_api_key` from then on (on every process within 30 s); revoking the key of the request itself is allowed. Another user's key, or one already revoked, is `404 not_found`.",
      },
      beyondSpec: BEYOND_SPEC,
      errors: ["not_found"],
    })
    .input(keyByIdInput)
    .output(dataOf(z.object({ id: z.number().int(), revoked: z.literal(true) })))
    .mutation(({ ctx, input }) => revokeOwnKey(ctx, input)),
});
