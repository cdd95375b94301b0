/**
 * Webhook endpoints (docs/webhooks.md): a user's own (the key's user, across their
 * accounts), at most 10; the URL passes the outbound guard when stored and again on every
 * delivery; the secret is shown once, at create and at rotation.
 */
import type { KeyContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { UrlNotAllowedError } from "../outbound/outbound.ts";
import { pageInfo } from "../schema.ts";
import {
  countWebhooks,
  currentEventSeq,
  deleteWebhook,
  insertWebhook,
  lockAndCountWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  webhookOf,
  webhooksOf,
} from "./webhooks_queries.ts";
import {
  type CreateWebhookInput,
  endpointView,
  type ListWebhooksInput,
  MAX_WEBHOOKS,
  type UpdateWebhookInput,
  type WebhookByIdInput,
  type WebhookRow,
} from "./webhook_schema.ts";
import { newWebhookSecret } from "./webhook_secret.ts";
import { sequenceAllEvents } from "../events/sequence_events.ts";
import { HOUR_MS } from "../time/durations.ts";

/** How long the secret before a rotation keeps signing (docs/webhooks.md: old and new both sign for 24 hours). */
export const PREVIOUS_SECRET_MS = 24 * HOUR_MS;

const now = (ctx: KeyContext) => new Date(ctx.services.clock.now());

/** `404 webhook_not_found` for `id`. */
export function webhookNotFound(id: number): ApiError {
  return new ApiError("webhook_not_found", `Cannot find webhook "${id}"`);
}

/** The user's endpoint `id`, or `404 webhook_not_found`. */
export async function ownWebhook(ctx: KeyContext, id: number): Promise<WebhookRow> {
  const row = await webhookOf(ctx.services.sql, ctx.principal.userId, id);
  if (!row) throw webhookNotFound(id);
  return row;
}

/** `["*"]` when every type is asked for (or none named), else the distinct types in the order sent. */
function normalEvents(events: string[] | undefined): string[] {
  if (!events || events.includes("*")) return ["*"];
  return [...new Set(events)];
}

/** Runs the outbound guard on `url` (`400 url_not_allowed`). */
async function guardUrl(ctx: KeyContext, url: string): Promise<void> {
  try {
    await ctx.services.webhookSender.check(url);
  } catch (error) {
    if (error instanceof UrlNotAllowedError) throw new ApiError("url_not_allowed", error.message);
    throw error;
  }
}

/** Creates an endpoint; answers it with its secret (shown once). */
export async function createWebhook(ctx: KeyContext, input: CreateWebhookInput) {
  await guardUrl(ctx, input.url);
  const { sql } = ctx.services;
  const at = now(ctx);
  // Events committed before the endpoint existed get their `seq` now, so the cursor below is past them.
  await sequenceAllEvents(sql);
  const secret = newWebhookSecret();
  const row = await sql.begin(async (tx) => {
    if ((await lockAndCountWebhooks(tx, ctx.principal.userId)) >= MAX_WEBHOOKS) {
      throw new ApiError("cap_reached", `A user may have at most ${MAX_WEBHOOKS} webhook endpoints; delete one first`);
    }
    return insertWebhook(tx, {
      ownerId: ctx.principal.userId,
      url: input.url,
      events: normalEvents(input.events),
      description: input.description || null,
      enabled: input.enabled ?? true,
      // Stored sealed (docs/webhooks.md, "Secrets at rest"); shown in plain once, here.
      secret: ctx.services.secretBox.seal(secret),
      // Events from now on: the ones before the endpoint existed are not queued to it.
      cursorSeq: await currentEventSeq(tx),
      now: at,
    });
  });
  return { data: { ...endpointView(row, at), secret } };
}

/** The user's endpoints, oldest first. */
export async function listWebhooks(ctx: KeyContext, input: ListWebhooksInput) {
  const { sql } = ctx.services;
  const [rows, total] = await Promise.all([
    webhooksOf(sql, ctx.principal.userId, input.limit, (input.page - 1) * input.limit),
    countWebhooks(sql, ctx.principal.userId),
  ]);
  const at = now(ctx);
  return { data: rows.map((row) => endpointView(row, at)), pagination: pageInfo(input.page, input.limit, total, rows.length) };
}

/** One endpoint. */
export async function getWebhook(ctx: KeyContext, input: WebhookByIdInput) {
  return { data: endpointView(await ownWebhook(ctx, input.id), now(ctx)) };
}

/** Changes the fields sent; an empty change is `400 invalid_parameter`. */
export async function changeWebhook(ctx: KeyContext, input: UpdateWebhookInput) {
  const { id, ...fields } = input;
  if (Object.values(fields).every((value) => value === undefined)) {
    throw new ApiError("invalid_parameter", "Send at least one of url, events, description, enabled");
  }
  await ownWebhook(ctx, id);
  if (input.url !== undefined) await guardUrl(ctx, input.url);
  const at = now(ctx);
  const { sql } = ctx.services;
  if (input.enabled === true) await sequenceAllEvents(sql);
  const row = await updateWebhook(sql, ctx.principal.userId, id, {
    url: input.url,
    events: input.events === undefined ? undefined : normalEvents(input.events),
    description: input.description === undefined ? undefined : input.description || null,
    enabled: input.enabled,
    now: at,
    enabledCursor: await currentEventSeq(sql),
  });
  if (!row) throw webhookNotFound(id);
  return { data: endpointView(row, at) };
}

/** Deletes an endpoint with its deliveries; a repeat is `404 webhook_not_found`. */
export async function removeWebhook(ctx: KeyContext, input: WebhookByIdInput) {
  if (!(await deleteWebhook(ctx.services.sql, ctx.principal.userId, input.id))) throw webhookNotFound(input.id);
  return { data: { id: input.id, deleted: true as const } };
}

/** A new secret, shown once; the old one keeps signing for 24 hours. */
export async function rotateSecret(ctx: KeyContext, input: WebhookByIdInput) {
  const at = now(ctx);
  const secret = newWebhookSecret();
  const sealed = ctx.services.secretBox.seal(secret);
  const row = await rotateWebhookSecret(ctx.services.sql, ctx.principal.userId, input.id, sealed, new Date(at.getTime() + PREVIOUS_SECRET_MS), at);
  if (!row) throw webhookNotFound(input.id);
  return { data: { ...endpointView(row, at), secret } };
}
