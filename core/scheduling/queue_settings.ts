/**
 * Queue settings (supplement: Queue; spec rule 6): `GET /v1/queue-settings`, and the two
 * writes. `PUT` replaces: a field left out returns to its default. `PATCH` (the method the
 * reference CLI sends, supplement C1) changes only the fields sent. On both, `null` resets
 * a field to its default. Writes are allowed on shared accounts, editor or viewer
 * (supplement: "Allowed on shared accounts including editor permission").
 */
import type { AccountContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { effectiveQueueSettings, type EffectiveQueueSettings, normalizeSlots, sameSlots, type StoredQueueSettings } from "../queue/queue_defaults.ts";
import type { QueueSettingsInput, QueueSettingsView, ReflowOutcome } from "../queue/queue_settings_schema.ts";
import { lockQueueSettings, queueSettingsOf, saveQueueSettings } from "../queue/queue_queries.ts";
import { reflowQueue } from "./queue_reflow.ts";
import { assertSchedulerReachable } from "./scheduling_gate.ts";

/** Reads the account's queue settings, defaults filled in. */
export async function readQueueSettings(ctx: AccountContext): Promise<{ data: QueueSettingsView }> {
  assertSchedulerReachable(ctx);
  const stored = await queueSettingsOf(ctx.services.sql, ctx.account.id);
  return { data: toView(ctx.account.id, effectiveQueueSettings(stored)) };
}

/** `PUT`: replaces both fields; one left out returns to its default. */
export function replaceQueueSettings(ctx: AccountContext, input: QueueSettingsInput) {
  return writeQueueSettings(ctx, () => ({ slots: input.slots ?? null, timezone: input.timezone ?? null }));
}

/** `PATCH`: changes only the fields sent; at least one of `slots` and `timezone`. */
export function patchQueueSettings(ctx: AccountContext, input: QueueSettingsInput) {
  if (input.slots === undefined && input.timezone === undefined) {
    throw new ApiError("invalid_parameter", 'Send "slots", "timezone" or both');
  }
  return writeQueueSettings(ctx, (current) => ({
    slots: input.slots === undefined ? current.slots : input.slots,
    timezone: input.timezone === undefined ? current.timezone : input.timezone,
  }));
}

/**
 * Saves the settings and reflows the queue when the slots changed, in one transaction;
 * the settings row stays locked until it commits, so writes for one account run in turn.
 */
async function writeQueueSettings(ctx: AccountContext, next: (current: StoredQueueSettings) => StoredQueueSettings): Promise<{ data: QueueSettingsView }> {
  assertSchedulerReachable(ctx);
  const { sql, clock } = ctx.services;
  const now = new Date(clock.now());
  const accountId = ctx.account.id;
  return sql.begin(async (tx) => {
    const current = await lockQueueSettings(tx, accountId);
    const wanted = next(current);
    const stored = { slots: wanted.slots === null ? null : normalizeSlots(wanted.slots), timezone: wanted.timezone };
    await saveQueueSettings(tx, accountId, stored, now);
    const before = effectiveQueueSettings(current);
    const after = effectiveQueueSettings(stored);
    const reflow: ReflowOutcome = sameSlots(before.slots, after.slots)
      ? { moved: 0, skipped: 0, bailed: false }
      : await reflowQueue(tx, accountId, { oldSlots: before.slots, newSlots: after.slots, timeZone: after.timezone }, now);
    return { data: { ...toView(accountId, after), reflow } };
  });
}

function toView(accountId: string, settings: EffectiveQueueSettings): QueueSettingsView {
  return {
    account_id: accountId,
    slots: settings.slots,
    timezone: settings.timezone,
    slots_are_default: settings.slotsAreDefault,
    timezone_is_default: settings.timezoneIsDefault,
  };
}
