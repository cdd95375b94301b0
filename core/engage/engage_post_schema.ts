/**
 * Posts as Engage answers them (supplement: Engage): the live lookups' post shape (text,
 * author with handle, bio and follower counts, metrics, post time) plus what Engage knows
 * about the account's relation to it.
 */
import { z } from "zod";
import { xPost } from "../lookups/lookup_records.ts";

/** A candidate post of a feed. */
export const feedPost = xPost
  .extend({
    replied: z.boolean().meta({ description: "The account already replied to it (only with `include_replied=true`)" }),
    seen: z.boolean().meta({ description: "This feed returned it before (seen posts sink below unseen ones)" }),
  })
  .meta({ id: "EngageFeedPost" });

/** A post a mention answers, with one more level of ancestry. */
export const parentPost = xPost
  .extend({ parent_post: xPost.nullable().meta({ description: "The post this parent answers, when it answers one" }) })
  .meta({ id: "EngageParentPost" });

/** A mention of the account or a reply to one of its posts. */
export const mention = xPost
  .extend({
    mention_type: z.enum(["reply", "mention"]).meta({ description: "`reply`: a direct reply to the account's own post; `mention` otherwise" }),
    replied: z.boolean().meta({ description: "The account already replied to it (only with `include_replied=true`)" }),
    parent_post: parentPost.nullable().meta({ description: "The post it answers (with that post's own parent), when it answers one" }),
  })
  .meta({ id: "EngageMention" });
