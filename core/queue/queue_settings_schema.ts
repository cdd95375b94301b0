/**
 * Queue settings fields and bounds (supplement: Queue, `PUT /v1/queue-settings`): weekly
 * slots `{ time: "HH:MM", days: [0-6] }` (0 = Sunday), a full replace of at most 50
 * entries with one entry per distinct time, and an IANA `timezone`.
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";
import { canonicalTimeZone } from "./zoned_time.ts";

/** Entries in `slots` (supplement: Queue, "max 50 entries"). */
export const MAX_SLOTS = 50;

const WEEKDAY_MESSAGE = "must be a weekday from 0 (Sunday) to 6 (Saturday)";

/** A slot's wall time in the account's zone, `HH:MM` on a 24-hour clock. */
export const slotTime = z
  .string({ error: 'must be a time "HH:MM" from 00:00 to 23:59' })
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be a time "HH:MM" from 00:00 to 23:59')
  .meta({ example: "09:00" });

/** A weekday, 0 = Sunday. */
export const weekday = z.number({ error: WEEKDAY_MESSAGE }).int(WEEKDAY_MESSAGE).min(0, WEEKDAY_MESSAGE).max(6, WEEKDAY_MESSAGE);

/** One weekly slot: a time and the weekdays it applies to (at least one, none repeated). */
export const queueSlot = z
  .object({
    time: slotTime,
    days: z
      .array(weekday, { error: "must be an array of weekdays 0-6" })
      .min(1, "must have at least one weekday")
      .refine((days) => new Set(days).size === days.length, "must not repeat a weekday")
      .meta({ description: "Weekdays, 0 = Sunday", example: [1, 3, 5] }),
  })
  .meta({ id: "QueueSlot" });

/** A queue slot. */
export type QueueSlot = z.infer<typeof queueSlot>;

/** `slots`: the full weekly set, at most 50 entries, one per distinct time; `[]` clears every slot. */
export const queueSlots = z
  .array(queueSlot, { error: "must be an array of { time, days }" })
  .max(MAX_SLOTS, `must have at most ${MAX_SLOTS} entries`)
  .superRefine((slots, ctx) => {
    const seen = new Set<string>();
    for (const [index, slot] of slots.entries()) {
      if (seen.has(slot.time)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "time"],
          message: `"${slot.time}" appears more than once; send one entry per time with all its weekdays`,
        });
      }
      seen.add(slot.time);
    }
  });

/** An IANA zone name, answered in its canonical spelling (`europe/london` -> `Europe/London`). */
export const timeZoneName = z
  .string({ error: "must be an IANA time zone name such as Europe/London" })
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === undefined) ctx.addIssue({ code: "custom", message: `"${name}" is not an IANA time zone name such as Europe/London` });
    return canonical ?? name;
  })
  .meta({ description: "IANA time zone name", example: "Europe/London" });

/** What a slot change did to the queue (supplement: Queue, `reflow`). */
export const reflowOutcome = z
  .object({
    moved: z.number().int().meta({ description: "Queued posts moved from an old slot time to the matching new one" }),
    skipped: z.number().int().meta({
      description: "Queued posts on an old slot time left where they were (target taken by another post, no new slot within 18 months, or the reflow bailed)",
    }),
    bailed: z.boolean().meta({ description: "True when the settings were saved but the queue was left untouched; rerunning is safe" }),
  })
  .meta({ id: "QueueReflow" });

/** What a reflow reports. */
export type ReflowOutcome = z.infer<typeof reflowOutcome>;

/** The queue settings as every queue endpoint answers them. */
export const queueSettingsView = z
  .object({
    account_id: z.string(),
    slots: z.array(queueSlot),
    timezone: z.string(),
    slots_are_default: z.boolean().meta({ description: "True while the account never set its slots (or reset them with null)" }),
    timezone_is_default: z.boolean().meta({ description: "True while the account never set its timezone (or reset it with null)" }),
    reflow: reflowOutcome.optional().meta({ description: "On writes: what the slot change did to queued posts" }),
  })
  .meta({ id: "QueueSettings" });

/** Queue settings as answered. */
export type QueueSettingsView = z.infer<typeof queueSettingsView>;

/** `GET /v1/queue-settings`. */
export const queueSettingsReadInput = z.object(accountSelection).prefault({});

/** `PUT` and `PATCH /v1/queue-settings`: `undefined` is not sent, `null` returns a field to its default. */
export const queueSettingsInput = z.object({
  ...accountSelection,
  slots: queueSlots
    .nullable()
    .optional()
    .meta({ description: "Full weekly set, max 50 entries, one per time; `[]` clears every slot; `null` returns to the default" }),
  timezone: timeZoneName.nullable().optional().meta({ description: "IANA name; `null` returns to the default (UTC)" }),
});

/** The fields a write sends. */
export type QueueSettingsInput = z.infer<typeof queueSettingsInput>;
