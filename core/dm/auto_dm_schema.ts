/**
 * The `auto_dm` setting of a scheduled post (supplement: Scheduling, "Auto DM inputs:
 * message 1-1000 with `[name]`/`[first]`/`[handle]`, triggers `reply` and/or `repost`
 * (default reply), max 1-100 (default 100), batch flag, off switch"; the body field names
 * are not shown there, so these are Threadline's, with the real service's CLI's beside them)
 * and how a post shows it: attached, never its text.
 */
import { z } from "zod";
import { crossFieldRule } from "../cross_field_rule.ts";
import { dmMessage } from "./dm_schema.ts";

/** What starts an auto DM. */
export const AUTO_DM_TRIGGERS = ["reply", "repost"] as const;

/** One of them. */
export type AutoDmTrigger = (typeof AUTO_DM_TRIGGERS)[number];

/** How often, in minutes, the engagement of sent posts is read (core/dm/auto_dm_engagers.ts). */
export const AUTO_DM_READ_MINUTES = 5;

const maxPeople = z
  .number({ error: "must be an integer from 1 to 100" })
  .int("must be an integer from 1 to 100")
  .min(1, "must be an integer from 1 to 100")
  .max(100, "must be an integer from 1 to 100");

const triggerList = z
  .array(z.enum(AUTO_DM_TRIGGERS, { error: "must be reply or repost" }))
  .min(1, "must hold reply, repost or both")
  .max(2, "must hold reply, repost or both");

/** The form the real service's CLI sends (`--auto-dm-triggers reply,repost`): a flag per trigger. */
const triggerFlags = z.strictObject({ reply: z.boolean().optional(), repost: z.boolean().optional() });

/**
 * The `auto_dm` body field. Besides Threadline's names it takes the real service's CLI's
 * (`scheduled:create --auto-dm-*`: `triggers: { reply, repost }`, `max_dms`, `batch_mode`);
 * an unknown key is refused rather than dropped.
 */
export const autoDmInput = z
  .strictObject({
    message: dmMessage,
    triggers: z.union([triggerList, triggerFlags], { error: "must be a list of reply and repost, or { reply, repost } flags" }).optional().meta({
      description:
        "Who is messaged once the post is sent: people who `reply`, `repost`, or both (default reply); a list, or `{ reply: true, repost: true }` flags",
    }),
    max: maxPeople.optional().meta({ description: "People messaged at most (1 to 100, default 100; the plan's `per_post_max` caps it too)" }),
    max_dms: maxPeople.optional().meta({ description: "The same as `max`, under the name the real service's CLI sends" }),
    batch_mode: z
      .boolean()
      .default(false)
      .meta({
        description: `true: the people who engaged are queued together once an hour (the first batch an hour after the post went out) instead of within ${AUTO_DM_READ_MINUTES} minutes`,
      }),
    enabled: z.boolean().default(true).meta({ description: "The off switch: false keeps the setting (and its monthly slot) but messages nobody" }),
  })
  .check(
    crossFieldRule((input, fail) => {
      if (input.max !== undefined && input.max_dms !== undefined && input.max !== input.max_dms) fail(["max_dms"], "must equal max when both are sent");
      if (input.triggers && !Array.isArray(input.triggers) && !input.triggers.reply && !input.triggers.repost) {
        fail(["triggers"], "must turn on reply, repost or both");
      }
    }),
  )
  .transform(({ message, triggers, max, max_dms, batch_mode, enabled }) => ({
    message,
    triggers: triggersOf(triggers),
    max: max ?? max_dms ?? 100,
    batch_mode,
    enabled,
  }))
  .meta({ description: "Message people who reply to or repost the post once it is sent; null removes it (its monthly slot comes back)" });

function triggersOf(triggers: z.infer<typeof triggerList> | z.infer<typeof triggerFlags> | undefined): AutoDmTrigger[] {
  if (triggers === undefined) return ["reply"];
  if (Array.isArray(triggers)) return [...new Set(triggers)];
  return AUTO_DM_TRIGGERS.filter((trigger) => triggers[trigger]);
}

/** The `auto_dm` body, parsed into one form (triggers as a list, `max` whichever name sent it). */
export type AutoDmInput = z.infer<typeof autoDmInput>;

/** How a post shows its auto DM: that one is attached and how it triggers, never the text. */
export const autoDmView = z
  .object({
    attached: z.literal(true),
    triggers: z.array(z.enum(AUTO_DM_TRIGGERS)),
    max: z.number().int(),
    batch_mode: z.boolean(),
    enabled: z.boolean(),
  })
  .nullable()
  .meta({ description: "The auto DM attached to the post (its text is never returned), or null" });
