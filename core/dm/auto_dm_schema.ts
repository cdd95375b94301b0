/**
 * The `auto_dm` setting of a scheduled post (supplement: Scheduling, "Auto DM inputs:
 * message 1-1000 with `[name]`/`[first]`/`[handle]`, triggers `reply` and/or `repost`
 * (default reply), max 1-100 (default 100), ... off switch"; the body field names are not
 * shown there, so these are Threadline's) and how a post shows it: attached, never its text.
 */
import { z } from "zod";
import { dmMessage } from "./dm_schema.ts";

/** What starts an auto DM. */
export const AUTO_DM_TRIGGERS = ["reply", "repost"] as const;

/** The `auto_dm` body field. */
export const autoDmInput = z
  .object({
    message: dmMessage,
    triggers: z
      .array(z.enum(AUTO_DM_TRIGGERS, { error: "must be reply or repost" }))
      .min(1, "must hold reply, repost or both")
      .max(2, "must hold reply, repost or both")
      .default(["reply"])
      .meta({ description: "Who is messaged once the post is sent: people who `reply`, `repost`, or both (default reply)" }),
    max: z
      .number({ error: "must be an integer from 1 to 100" })
      .int("must be an integer from 1 to 100")
      .min(1, "must be an integer from 1 to 100")
      .max(100, "must be an integer from 1 to 100")
      .default(100)
      .meta({ description: "People messaged at most (1 to 100, default 100; the plan's `per_post_max` caps it too)" }),
    enabled: z.boolean().default(true).meta({ description: "The off switch: false keeps the setting (and its monthly slot) but messages nobody" }),
  })
  .meta({ description: "Message people who reply to or repost the post once it is sent; null removes it (its monthly slot comes back)" });

/** The `auto_dm` body, parsed. */
export type AutoDmInput = z.infer<typeof autoDmInput>;

/** How a post shows its auto DM: that one is attached and how it triggers, never the text. */
export const autoDmView = z
  .object({
    attached: z.literal(true),
    triggers: z.array(z.enum(AUTO_DM_TRIGGERS)),
    max: z.number().int(),
    enabled: z.boolean(),
  })
  .nullable()
  .meta({ description: "The auto DM attached to the post (its text is never returned), or null" });
