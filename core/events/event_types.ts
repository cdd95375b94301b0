/**
 * The event types (docs/webhooks.md): one per state change an API user would otherwise poll
 * for, named `<object>.<change>`. Adding a type here is what makes it subscribable on webhooks
 * and filterable on `GET /v1/events`.
 */
export const EVENT_TYPES = [
  "post.scheduled",
  "post.sent",
  "post.failed",
  "post.deleted",
  "article.scheduled",
  "article.published",
  "article.publish_failed",
  "cover.done",
  "cover.failed",
  "suggestion.created",
  "dataset.ready",
  "dataset.failed",
  "dm.sent",
  "dm.failed",
  "dm_campaign.completed",
  "lead.found",
  "credits.low",
  "webhook.disabled",
  "account.reauth_required",
] as const;

/** An event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Events are kept this long (docs/webhooks.md, "Retention": 30 days). */
export const EVENT_RETENTION_DAYS = 30;
