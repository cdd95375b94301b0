/**
 * What an account's queue is before it sets anything (supplement: Queue,
 * `slots_are_default` / `timezone_is_default`; the values are Threadline's choice):
 * three slots a day, every day, read in UTC. A stored `null` means "use the default".
 */
import type { QueueSlot } from "./queue_settings_schema.ts";

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/** The default weekly slots: 09:00, 13:00 and 17:00 every day. */
export const DEFAULT_SLOTS: readonly QueueSlot[] = Object.freeze([
  { time: "09:00", days: EVERY_DAY },
  { time: "13:00", days: EVERY_DAY },
  { time: "17:00", days: EVERY_DAY },
]);

/** The default time zone. */
export const DEFAULT_TIMEZONE = "UTC";

/** Settings as stored (`null`: the default). */
export interface StoredQueueSettings {
  slots: QueueSlot[] | null;
  timezone: string | null;
}

/** Settings in force, with whether each came from the default. */
export interface EffectiveQueueSettings {
  slots: QueueSlot[];
  timezone: string;
  slotsAreDefault: boolean;
  timezoneIsDefault: boolean;
}

/** The settings in force for what is stored. */
export function effectiveQueueSettings(stored: StoredQueueSettings | undefined): EffectiveQueueSettings {
  const slots = stored?.slots ?? null;
  const timezone = stored?.timezone ?? null;
  return {
    slots: slots ?? DEFAULT_SLOTS.map((slot) => ({ time: slot.time, days: [...slot.days] })),
    timezone: timezone ?? DEFAULT_TIMEZONE,
    slotsAreDefault: slots === null,
    timezoneIsDefault: timezone === null,
  };
}

/** Slots in their stored order: by time, each with its weekdays ascending. */
export function normalizeSlots(slots: readonly QueueSlot[]): QueueSlot[] {
  return slots.map((slot) => ({ time: slot.time, days: [...slot.days].sort((a, b) => a - b) })).sort((a, b) => a.time.localeCompare(b.time));
}

/** True when two slot sets name the same weekly times. */
export function sameSlots(a: readonly QueueSlot[], b: readonly QueueSlot[]): boolean {
  const key = (slots: readonly QueueSlot[]) => JSON.stringify(normalizeSlots(slots).filter((slot) => slot.days.length > 0));
  return key(a) === key(b);
}
