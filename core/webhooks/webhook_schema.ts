/** The webhook endpoint and delivery shapes the API answers, and the endpoint inputs (docs/webhooks.md). */
import { z } from "zod";
import { EVENT_TYPES } from "../events/event_types.ts";
import { integerId, paginationInput } from "../schema.ts";

/** Endpoints per user (docs/webhooks.md: at most 10 endpoints per user). */
export const MAX_WEBHOOKS = 10;

/** Subscribable event types: each of EVENT_TYPES, or `*` for all (present and future). */
export const webhookEventType = z.enum([...EVENT_TYPES, "*"], { error: `must be one of ${EVENT_TYPES.join(", ")} or *` });

/** The `url` field: an absolute http(s) URL; which ones may be called is the outbound guard's rule. */
export const webhookUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute https URL (http only for hosts the operator allows)" })
  .max(2048, "must be at most 2048 characters")
  .meta({ description: "https URL receiving the deliveries (http only for hosts in the operator's OUTBOUND_ALLOW_HOSTS)" });

/** The `events` field: 1 to all types; omitted or `["*"]` is every type. */
export const webhookEvents = z
  .array(webhookEventType)
  .min(1, "must hold at least one event type (or * for all)")
  .max(EVENT_TYPES.length + 1, `must hold at most ${EVENT_TYPES.length + 1} entries`)
  .meta({ description: 'Event types delivered; omitted or `["*"]` for every type' });

/** The `description` field. */
export const webhookDescription = z.string().trim().max(500, "must be at most 500 characters").nullable();

/** An endpoint as the API shows it (the secret only in the answers that create one). */
export const webhookEndpoint = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({ description: "Why Threadline disabled the endpoint (a run of failures), else null" }),
    previous_secret_expires_at: z.string().nullable().meta({ description: "Until then the secret before the last rotation also signs" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });

/** An endpoint with its secret, shown once. */
export const webhookWithSecret = webhookEndpoint
  .extend({ secret: z.string().meta({ description: "`whsec_` + base64: verify deliveries with it (shown once)" }) })
  .meta({ id: "WebhookEndpointWithSecret" });

/** One delivery of an event to an endpoint. */
export const webhookDelivery = z
  .object({
    id: z.number().int(),
    event_id: z.string().meta({ description: "The event id, also the `webhook-id` header (the same on every attempt)" }),
    event_type: z.string(),
    status: z.enum(["pending", "succeeded", "failed"]).meta({ description: "pending (queued or between attempts), succeeded, failed (gave up)" }),
    attempt: z.number().int().meta({ description: "Attempts made so far" }),
    response_code: z.number().int().nullable().meta({ description: "HTTP status of the last attempt; null when none answered" }),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable().meta({ description: "Why the last attempt failed" }),
    next_retry_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

/** A stored endpoint. */
export interface WebhookRow {
  id: number;
  owner_id: number;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  cursor_seq: number;
  consecutive_failures: number;
  failing_since: Date | null;
  disabled_reason: string | null;
  /** The average attempt duration in ms (core/webhooks/delivery_limits.ts: a slow endpoint's cap is smaller). */
  latency_avg_ms: number;
  created_at: Date;
  updated_at: Date;
}

/** A stored delivery. */
export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  event_seq: number | null;
  event_type: string;
  object_key: string;
  body: string;
  status: "pending" | "succeeded" | "failed";
  attempt: number;
  next_attempt_at: Date | null;
  locked_by: string | null;
  locked_until: Date | null;
  response_code: number | null;
  latency_ms: number | null;
  error: string | null;
  last_attempt_at: Date | null;
  event_created_at: Date;
  created_at: Date;
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

/** The API view of an endpoint. */
export function endpointView(row: WebhookRow, now: Date): z.infer<typeof webhookEndpoint> {
  const previousLive = row.previous_secret_until && new Date(row.previous_secret_until) > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: previousLive ? iso(row.previous_secret_until) : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The API view of a delivery. */
export function deliveryView(row: DeliveryRow): z.infer<typeof webhookDelivery> {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt: row.attempt,
    response_code: row.response_code,
    latency_ms: row.latency_ms,
    error: row.error,
    next_retry_at: row.status === "pending" ? iso(row.next_attempt_at) : null,
    last_attempt_at: iso(row.last_attempt_at),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** `POST /v1/webhooks`. */
export const createWebhookInput = z.object({
  url: webhookUrl,
  events: webhookEvents.optional(),
  description: webhookDescription.optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
});

/** The create body. */
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

/** `PATCH /v1/webhooks/{id}`: any of the fields (an empty body is refused in core/webhooks/manage_webhooks.ts). */
export const updateWebhookInput = z.object({
  id: integerId,
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: webhookDescription.optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
});

/** The PATCH body. */
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

/** `GET /v1/webhooks`: the page (the key's user's endpoints). */
export const listWebhooksInput = z.object({ ...paginationInput(20) }).prefault({});

/** The list's page, parsed. */
export type ListWebhooksInput = z.infer<typeof listWebhooksInput>;

/** `GET` and `DELETE /v1/webhooks/{id}`, and its `test` and `rotate-secret` actions. */
export const webhookByIdInput = z.object({ id: integerId });

/** An id-addressed call's input. */
export type WebhookByIdInput = z.infer<typeof webhookByIdInput>;

/** `GET /v1/webhooks/{id}/deliveries`: the page. */
export const listDeliveriesInput = z.object({ id: integerId, ...paginationInput(20) });

/** The deliveries page's input, parsed. */
export type ListDeliveriesInput = z.infer<typeof listDeliveriesInput>;

/** `POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry`. */
export const retryDeliveryInput = z.object({ id: integerId, delivery_id: integerId });

/** What a retry sends. */
export type RetryDeliveryInput = z.infer<typeof retryDeliveryInput>;
