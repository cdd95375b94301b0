/**
 * The `auto_plug` follow-up of a sent post (supplement: Scheduling, `auto_plug`: "`{
 * template_id, threshold (likes, required) }`"): an hour after sending, and then every
 * hour up to 24 hours after sending, the first part's likes are read; once they reach
 * `threshold` the account replies to the last part of the thread with the template's
 * text (and media), once. The hourly cadence and the 24-hour horizon are chosen here.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { NetworkNotFoundError } from "../network/network_errors.ts";
import { plugTemplateInWorkspace, recordAutoPlugged, workspaceOfAccount } from "./plug_templates_queries.ts";
import { HOUR_MS } from "../time/durations.ts";

/** Hours between two checks of the likes (the first check is one hour after sending). */
export const AUTO_PLUG_CHECK_EVERY_HOURS = 1;
/** The last check is this many hours after sending; a post still below then is left alone. */
export const AUTO_PLUG_LAST_CHECK_HOURS = 24;

/** What a check decided: replied, gave up, or check again as number `check` at `runAt`. */
export type AutoPlugOutcome = { done: true } | { done: false; check: number; runAt: Date };

/**
 * What a check reads of a sent post: the `scheduled_posts` columns the scheduling area's row
 * carries (core/scheduling/scheduled_posts_queries.ts), named here so the plug templates
 * import nothing from the scheduling area that arms their checks.
 */
export interface PluggablePost {
  id: number;
  account_id: string;
  auto_plug: { template_id: string; threshold: number } | null;
  auto_plugged_at: Date | null;
  sent_at: Date | null;
  x_post_ids: string[] | null;
}

/** The idempotency token of a post's plug reply: one per post, so a retry never posts twice. */
export function autoPlugToken(postId: number): string {
  return `plug:${postId}`;
}

/** Runs check number `check` (1-based) of a sent post's `auto_plug`. */
export async function checkAutoPlug(deps: { sql: Sql; network: SocialNetwork; clock: Clock }, post: PluggablePost, check: number): Promise<AutoPlugOutcome> {
  const { sql, network } = deps;
  const ids = post.x_post_ids ?? [];
  if (!post.auto_plug || post.auto_plugged_at || !post.sent_at || ids.length === 0) return { done: true };
  const likes = await likesOf(network, ids[0]);
  if (likes === undefined) return { done: true };
  if (likes < post.auto_plug.threshold) {
    const next = check + 1;
    const hours = next * AUTO_PLUG_CHECK_EVERY_HOURS;
    if (hours > AUTO_PLUG_LAST_CHECK_HOURS) return { done: true };
    return { done: false, check: next, runAt: new Date(post.sent_at.getTime() + hours * HOUR_MS) };
  }
  // A template gone since (its workspace deleted it) leaves the post unplugged.
  const workspaceId = await workspaceOfAccount(sql, post.account_id);
  const template = workspaceId ? await plugTemplateInWorkspace(sql, workspaceId, Number(post.auto_plug.template_id)) : undefined;
  if (!template) return { done: true };
  const token = autoPlugToken(post.id);
  // Reconcile first: an earlier attempt may have replied and died before recording it.
  const reply: NetworkPost =
    (await network.findPublished({ authorId: post.account_id, token })) ??
    (await network.publishPost({
      authorId: post.account_id,
      text: template.text,
      ...(template.media_object_key ? { mediaKeys: [template.media_object_key] } : {}),
      replyToId: ids.at(-1),
      token,
    }));
  await recordAutoPlugged(sql, post.id, reply.id, new Date(deps.clock.now()));
  return { done: true };
}

/** The post's likes, or undefined when it is gone. */
async function likesOf(network: SocialNetwork, postId: string): Promise<number | undefined> {
  try {
    return (await network.postById(postId)).metrics.likes;
  } catch (error) {
    if (error instanceof NetworkNotFoundError) return undefined;
    throw error;
  }
}
