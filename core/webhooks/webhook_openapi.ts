/**
 * The OpenAPI 3.1 `webhooks` section (docs/webhooks.md): what Threadline posts to an endpoint,
 * one entry per event type (and `ping`), each with the Standard Webhooks headers and the
 * event body, so generated clients and readers see the deliveries beside the routes.
 */
import { EVENT_TYPES } from "../events/event_types.ts";

type Json = Record<string, unknown>;

const header = (description: string, example: string): Json => ({ required: true, description, schema: { type: "string" }, example });

/** The event body every delivery carries (core/events/event_payload.ts). */
function eventBody(type: string): Json {
  return {
    type: "object",
    required: ["id", "type", "created_at", "account_id", "object", "data"],
    properties: {
      id: { type: "string", description: "The event id (`evt_<n>`), also the `webhook-id` header: dedupe on it", example: "evt_42" },
      type: { type: "string", const: type },
      created_at: { type: "string", format: "date-time", description: "When the change happened" },
      account_id: { type: ["string", "null"], description: "The account the change belongs to" },
      object: {
        type: "object",
        required: ["type", "id"],
        properties: { type: { type: "string", example: "scheduled_post" }, id: { type: "string", example: "123" } },
      },
      data: { description: "The object as its GET returns it (a small body for deletions; `{ webhook_id, url }` for a ping)" },
    },
  };
}

/** The `webhooks` section: `POST` to the endpoint's URL, per event type. */
export function webhooksSection(): Json {
  const section: Json = {};
  for (const type of ["ping", ...EVENT_TYPES]) {
    section[type] = {
      post: {
        summary: type === "ping" ? "The test ping (POST /v1/webhooks/{id}/test)" : `The ${type} event`,
        description:
          "Posted to each enabled endpoint subscribed to the type. Verify `webhook-signature` with the endpoint's secret and any " +
          "Standard Webhooks library before trusting the body. Answer 2xx within 10 s; anything else is retried (about 3 days).",
        operationId: `webhook-${type.replace(/[._]/g, "-")}`,
        tags: ["Webhooks"],
        // Threadline posts these to the endpoint's URL: no bearer key; the receiver verifies `webhook-signature`.
        security: [],
        parameters: [
          { in: "header", name: "webhook-id", ...header("The event id; the same on every retry", "evt_42") },
          { in: "header", name: "webhook-timestamp", ...header("Unix seconds of this attempt", "1767225600") },
          {
            in: "header",
            name: "webhook-signature",
            ...header(
              "`v1,<base64 HMAC-SHA256>` per signing secret, space separated (two during 24 h after a rotation)",
              "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
            ),
          },
        ],
        requestBody: { required: true, content: { "application/json": { schema: eventBody(type) } } },
        responses: { "200": { description: "Any 2xx: delivered" } },
      },
    };
  }
  return section;
}
