/** Turns a stored post into the Scheduled post record (spec: Scheduled post). */
import { postUrl } from "../network/post_url.ts";
import type { ScheduledPost } from "./scheduled_post_schema.ts";
import type { ScheduledPostRow } from "./scheduled_posts_queries.ts";
import { urlPriceWarnings } from "../x_usage/url_price_warning.ts";

/** The record of `row` with its `tags`. */
export function toScheduledPost(row: ScheduledPostRow, tags: ScheduledPost["tags"]): ScheduledPost {
  const xPostIds = row.x_post_ids ?? [];
  // Always, whatever the network: the simulated world stands in for X, whose price it warns of.
  const warnings = urlPriceWarnings(row.parts);
  return {
    id: String(row.id),
    account_id: row.account_id,
    status: row.status,
    scheduled_for: row.scheduled_for?.toISOString() ?? null,
    parts: row.parts.map((part) => ({
      text: part.text,
      media: (part.media ?? []).map((item) => ({ object_key: item.object_key, alt_text: item.alt_text ?? null })),
    })),
    title: row.title,
    scratchpad: row.scratchpad,
    tags,
    auto_retweet: row.auto_retweet ? { after_hours: row.auto_retweet.after_hours, remove_after_hours: row.auto_retweet.remove_after_hours ?? null } : null,
    auto_delete: row.auto_delete ? { after_hours: row.auto_delete.after_hours, threshold: row.auto_delete.threshold ?? DEFAULT_AUTO_DELETE_THRESHOLD } : null,
    auto_plug: row.auto_plug ? { template_id: row.auto_plug.template_id, threshold: row.auto_plug.threshold } : null,
    auto_dm: row.auto_dm
      ? { attached: true, triggers: row.auto_dm.triggers, max: row.auto_dm.max, batch_mode: row.auto_dm.batch_mode, enabled: row.auto_dm.enabled }
      : null,
    super_followers_only: row.super_followers_only,
    posted_at: row.status === "sent" ? (row.sent_at?.toISOString() ?? null) : null,
    x_post_id: xPostIds[0] ?? null,
    x_post_ids: xPostIds,
    url: xPostIds[0] ? postUrl(row.username, xPostIds[0]) : null,
    error: row.status === "error" ? row.error : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Views below which an auto-deleted post goes (supplement: Scheduling, `auto_delete.threshold`). */
export const DEFAULT_AUTO_DELETE_THRESHOLD = 1000;
