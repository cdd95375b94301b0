/**
 * The document's top-level `tags`: every tag an operation uses, declared once with what the
 * area is for (OpenAPI 3.1 "Tag Object"; the linters in `npm run lint:openapi` require each
 * operation's tag to be declared). Rules of one endpoint live in its own description.
 */

/** What each area of the API is for, in the order the reference lists them. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Identity: "The key, its owner, plan, credits and post quota, and the accounts the key reaches.",
  Keys: "Your own API keys: list, create (the key shown once), rotate and revoke; at most 10 active.",
  Context: "What the AI tools write with: the account's voice, rules, style guide and products.",
  Tags: "Workspace-wide labels for posts: a main account and its linked accounts share one set.",
  Scheduling:
    "Posts and threads: drafts, queued posts and publish-now. Every call answers `503 upstream_unavailable` while the scheduling service is down; creates need a finished onboarding (`403 onboarding_required`).",
  Queue: "The account's weekly queue slots in its IANA timezone (default 09:00, 13:00 and 17:00 every day, UTC).",
  Media: "Uploads to attach to posts: 100 per key per UTC day; uploads never attached are deleted after 24 hours.",
  Articles: "Long-form Markdown articles: drafts, scheduling, publishing and AI covers.",
  Workers: "Workers made in the companion app and the post suggestions they write on their schedule.",
  Content: "The account's own posts and replies as the content sync stored them, and AI tools that write posts.",
  Analytics: "Per-day analytics of the account's stored posts, and the best weekdays and hours to post.",
  Tools: "Text tools that answer text only (nothing is posted).",
  Inspiration: "Search recent public posts and a library of viral media posts.",
  "X Lookups": "Live reads of the network's posts and users; no `account_id`; answers cached about 15 minutes.",
  Audience: "The account's contacts, their notes, and the audience index (followers, following, repliers, reposters).",
  "Contact Lists": "The user's contact lists and their members, beside the four read-only system lists.",
  Signals: "Find people who fit an ideal customer profile: one-off lead search, hourly lead agents and free ICP helpers.",
  Datasets: "Collect people into datasets, research them, draft outreach, export or copy into a list; kept 30 days.",
  Engage: "Reading feeds, mentions and reply drafts; read-only towards the network (you post the reply yourself).",
  DMs: "DM campaigns and the queue the sender works through within the plan's DM limits, exactly once each.",
  Events: "Every state change as an event, written in the same transaction as the change: a list, a Server-Sent Events stream, settings.",
  Webhooks: "Endpoints that receive the events, signed to the Standard Webhooks specification; deliveries and retries.",
  Meta: "This API description.",
};

/** The `tags` array for the tags `used` by operations, in TAG_DESCRIPTIONS order (unknown ones last). */
export function declaredTags(used: Iterable<string>): { name: string; description?: string }[] {
  const names = new Set(used);
  const ordered = [...Object.keys(TAG_DESCRIPTIONS).filter((name) => names.has(name)), ...[...names].filter((name) => !(name in TAG_DESCRIPTIONS))];
  return ordered.map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}
