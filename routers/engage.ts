/**
 * Engage: reading feeds, mentions and reply drafts (docs/areas.md "Engage"; spec: Engage feed, Engage
 * endpoints, rule 7, Limits 1, 4, 6, 8; supplement: Engage and section 5). Read-only towards
 * the network: nothing here posts a reply (rule 7).
 */
import { z } from "zod";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import type { ErrorCode } from "../core/errors.ts";
import { cursorPagination } from "../core/lookups/lookup_records.ts";
import { changeFeedInput, createFeedInput, engageFeed, feedByIdInput, feedPostsInput, listFeedsInput, MAX_FEEDS } from "../core/engage/feed_schema.ts";
import { feedPost, mention } from "../core/engage/engage_post_schema.ts";
import { changeFeed, createFeed, deleteFeed, listFeeds } from "../core/engage/feeds.ts";
import { feedPosts } from "../core/engage/feed_posts.ts";
import { listMentions } from "../core/engage/mentions.ts";
import { listMentionsInput } from "../core/engage/mentions_schema.ts";
import { draftReply } from "../core/engage/reply_draft.ts";
import { draftReplyInput, REPLY_TONES } from "../core/engage/reply_draft_schema.ts";
import { PLANS } from "../core/plans/plans.ts";

const tags = ["Engage"];
const FEED_BUCKETS = Object.values(PLANS)
  .map((plan) => `${plan.id} ${plan.buckets.feed.minute.toLocaleString("en-US")}/${plan.buckets.feed.day.toLocaleString("en-US")}`)
  .join(", ");
const LIVE_ERRORS: ErrorCode[] = ["upstream_unavailable", "upstream_error", "upstream_timeout"];
const BY_ID =
  "The feed is found among every account the key reaches; `account_id`, when sent, narrows the search to that account. " +
  "Unknown or unreachable feeds are `404 feed_not_found`.";
const SOURCE_RULES =
  "`keywords` (1 to 5 strings, trimmed, de-duplicated case-insensitively, each at most 100 characters), `x_list_id` (numeric) or " +
  "`x_list_url` (`https://<host>/i/lists/<numeric id>`), or `list_id` (a contact list you made on the account; system lists are " +
  "`400 system_list_not_supported`). A public X list is resolved live for one enrichment unit (Limits 4), spent once the lookup " +
  "ran even when the request is then refused, and given back only when the network could not be reached; a private or missing " +
  "list is `404 x_list_not_found`. Keyword and contact-list " +
  "sources cost no enrichment.";
const engageMeta = z.object({ account_id: z.string(), fetch_units: z.number().int() });

export const engageRouter = router({
  listFeeds: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/engage/feeds",
        tags,
        summary: "List the account's Engage feeds",
        description: `Oldest first (at most ${MAX_FEEDS}), each with its source, \`active\` and \`fetch_units\`. Never spends feed fetches.`,
      },
    })
    .input(listFeedsInput)
    .use(inAccount)
    .output(z.object({ data: z.array(engageFeed) }))
    .query(({ ctx }) => listFeeds(ctx)),

  createFeed: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/engage/feeds",
        tags,
        summary: "Create an Engage feed",
        description:
          `\`name\` 1 to 40 characters and \`type\` agreeing with exactly one source: ${SOURCE_RULES} At most ${MAX_FEEDS} feeds per ` +
          "account (`409 feed_limit_reached`). The new feed is `active` only when the account had no active feed: creating never " +
          "changes the feed open in the app. Accounts shared with you are read-only (`403 writes_main_account_only`).",
      },
      successStatus: 201,
      exactlyOneOf: ["keywords", "x_list_id", "x_list_url", "list_id"],
      errors: ["feed_limit_reached", "x_list_not_found", "list_not_found", "system_list_not_supported", ...LIVE_ERRORS],
    })
    .input(createFeedInput)
    .use(inAccount)
    .output(dataOf(engageFeed))
    .mutation(({ ctx, input }) => createFeed(ctx, input)),

  updateFeed: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/engage/feeds/{id}",
        tags,
        summary: "Rename an Engage feed or change its source",
        description:
          `Any of \`name\` and one new source, without \`type\`: the type follows the source, and the feed keeps its id (its seen ` +
          `posts start over with a new source). Sources: ${SOURCE_RULES} An empty body is \`400 invalid_parameter\`. ${BY_ID} ` +
          "Feeds of accounts shared with you are read-only (`403 writes_main_account_only`).",
      },
      errors: ["feed_not_found", "x_list_not_found", "list_not_found", "system_list_not_supported", ...LIVE_ERRORS],
    })
    .input(changeFeedInput)
    .output(dataOf(engageFeed))
    .mutation(({ ctx, input }) => changeFeed(ctx, input)),

  deleteFeed: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/engage/feeds/{id}",
        tags,
        summary: "Delete an Engage feed",
        description:
          "Answers `{ data: { id, deleted: true, active_feed_id } }` (the client prints it): deleting the open feed hands `active` " +
          `to the first remaining feed (the oldest), \`active_feed_id\` naming it (null when none is left). ${BY_ID}`,
      },
      errors: ["feed_not_found"],
    })
    .input(feedByIdInput)
    .output(dataOf(z.object({ id: z.string(), deleted: z.literal(true), active_feed_id: z.string().nullable() })))
    .mutation(({ ctx, input }) => deleteFeed(ctx, input)),

  feedPosts: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/engage/feeds/{id}/posts",
        tags,
        summary: "Read a feed's candidate posts",
        description:
          "Recent posts to reply to: text, author (handle, bio, follower counts), metrics and post time. `mode` `top` (default: " +
          "likes + 2 x reposts + replies + quotes) or `latest`. Keyword feeds search up to 100 recent original posts and page " +
          "`limit` (1 to 50, default 20) at a time; list feeds read one page (about 25) that `limit` trims. Posts you already " +
          "replied to are left out unless `include_replied=true` (then flagged `replied`); your own posts never appear. Returned " +
          "posts count as seen and sink below unseen ones later (`seen`); page with `exclude_post_ids` (up to 100). What a feed " +
          "read is served again for 2 minutes (`meta.cached`, per process); `fresh=true` reads the network now. Each call counts " +
          `against the feed bucket (Limits 6; per plan, a minute / a UTC day: ${FEED_BUCKETS}), cached or not: 1, ` +
          "or 3 for a contact-list feed of more than 10 members, read 10 at " +
          'a time in rotation (`fetch_units`); over the cap `429 rate_limited` with `bucket: "feed"`, `retry_after` and ' +
          `\`remaining_day\` (fetches left today). A read that fails before answering gives its fetches back. ${BY_ID}`,
      },
      errors: ["feed_not_found", "x_list_not_found", ...LIVE_ERRORS],
    })
    .input(feedPostsInput)
    .output(
      z.object({
        data: z.array(feedPost),
        has_more: z.boolean(),
        feed: engageFeed,
        meta: engageMeta.extend({ mode: z.enum(["top", "latest"]), cached: z.boolean() }),
      }),
    )
    .query(({ ctx, input }) => feedPosts(ctx, input)),

  mentions: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/engage/mentions",
        tags,
        summary: "Read the account's mentions and replies",
        description:
          "Read live, 20 a page, newest first; `sort=top` orders each page by engagement. Each item has `mention_type` (`reply`: a " +
          "direct reply to one of the account's posts; `mention` otherwise) and `parent_post` (the post it answers, with that " +
          "post's own `parent_post`). Mentions you already answered are left out unless `include_replied=true`. Page with " +
          "`cursor` (`pagination.next_cursor`). Each call counts a flat 3 against the feed bucket (Limits 6); over the cap " +
          "`429 rate_limited` with `remaining_day`.",
      },
      errors: LIVE_ERRORS,
    })
    .input(listMentionsInput)
    .use(inAccount)
    .output(z.object({ data: z.array(mention), pagination: cursorPagination, meta: engageMeta.extend({ sort: z.enum(["latest", "top"]) }) }))
    .query(({ ctx, input }) => listMentions(ctx, input)),

  replyDraft: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/engage/reply-draft",
        tags,
        summary: "Draft a reply in the account's voice",
        description:
          "Exactly one of `post_id` (read live: one unit of the daily live allowance, none when the post was looked up in the last " +
          "15 minutes) or `post` (the wording, with optional `author_name` and `author_handle` beside it, or as the object `{ text, author_name, " +
          "author_handle }` the real service's CLI sends: no allowance). Optional `thoughts` " +
          "(up to 2,000 characters) steer it; `tone` one of engaging (default), humorous, creative, sarcastic, inspirational, " +
          "concise. Written in the account's voice; returns text only: nothing is posted (rule 7). Metered credits, typically 2, " +
          "with the `X-Credits-*` headers, refunded in full when the model fails before output. `meta.live_lookups` says whether " +
          "the allowance was spent; the 15-minute cache of looked-up posts is the one `GET /v1/x/posts/{id}` fills.",
      },
      credits: { metered: 1 },
      exactlyOneOf: ["post_id", "post"],
      errors: ["post_not_found", "lookup_quota_exceeded", ...LIVE_ERRORS],
    })
    .input(draftReplyInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(
      z.object({
        data: z.object({ text: z.string(), tone: z.enum(REPLY_TONES), post_id: z.string().nullable() }),
        meta: z.object({ credits_charged: z.number().int(), live_lookups: z.number().int(), account_id: z.string() }),
      }),
    )
    .mutation(({ ctx, input }) => draftReply(ctx, input)),
});
