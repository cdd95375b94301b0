/**
 * Daily and rolling allowances, per-day action caps and their errors (issue "Platform II"
 * scope 3; spec Limits 5, 7, 8, 11, AI credits per-day caps, DM limits, rule 9, Errors).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createContextInner, type Context } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { consumeAllowances, releaseAllowances, requireAllowances, type AllowanceSpec } from "../core/limits/allowances.ts";
import type { AllowanceOutcome, AllowanceRefusal } from "../core/limits/allowance_outcome.ts";
import {
  actionCapError,
  collectionQuotaError,
  dmLimitError,
  lookupQuotaError,
  rateLimitedAllowanceError,
  tokenBucketError,
} from "../core/limits/allowance_errors.ts";
import { DATASET_COLLECTIONS, LIVE_LOOKUPS, PLATFORM_LIVE_DATA, dailyActionCap } from "../core/limits/allowance_catalog.ts";
import { consumeRolling, pruneRollingUsage, releaseRolling } from "../core/limits/rolling_allowances.ts";

const HOUR = 3_600_000;
const epoch = (iso: string) => Date.parse(iso) / 1000;

let serial = 0;
/** A fresh owner (main account ids are digits), so cases never share a count. */
const newOwner = () => String(7_000_000 + ++serial);
/** A fresh allowance name, so platform-wide counts are not shared between cases either. */
const fresh = (prefix: string) => `${prefix}_${++serial}`;

function refusal(outcome: AllowanceOutcome): AllowanceRefusal {
  assert.notEqual(outcome.status, "allowed", "expected a refusal");
  return outcome as AllowanceRefusal;
}

/** The REST answer an ApiError becomes: status, body and headers. */
function answer(error: ApiError) {
  return { status: error.status, body: error.toBody().error, retryAfter: error.headers["Retry-After"] };
}

describe("daily allowances", () => {
  const clock = manualClock("2025-06-01T12:00:00Z");
  let harness: Harness;
  let ctx: Context;
  before(async () => {
    harness = await startHarness({ config: { clock } });
    ctx = createContextInner({ services: harness.services });
  });
  after(() => harness.close());

  test("the 300th lookup at 23:59:59.999Z is allowed, the 301st refused, and midnight UTC starts a fresh day", async () => {
    const owner = newOwner();
    const lookup = (units: number) =>
      consumeAllowances(ctx, owner, [
        { spec: LIVE_LOOKUPS, units },
        { spec: PLATFORM_LIVE_DATA, units },
      ]);
    clock.set("2025-06-01T23:59:59.999Z");
    assert.equal((await lookup(299)).status, "allowed");
    const last = await lookup(1);
    assert.equal(last.status, "allowed");
    assert.deepEqual(last.status === "allowed" && last.allowances[0], {
      name: "live_lookups",
      scope: "account",
      limit: 300,
      units: 1,
      used: 300,
      remaining: 0,
      resetAt: epoch("2025-06-02T00:00:00Z"),
    });
    const over = refusal(await lookup(1));
    assert.equal(over.status, "refused");
    assert.equal(over.status === "refused" && over.blocked.name, "live_lookups");
    assert.equal(over.status === "refused" && over.blocked.used, 300);

    clock.set("2025-06-02T00:00:00Z");
    const nextDay = await lookup(1);
    assert.equal(nextDay.status, "allowed");
    assert.equal(nextDay.status === "allowed" && nextDay.allowances[0].used, 1);
    assert.equal(nextDay.status === "allowed" && nextDay.allowances[0].resetAt, epoch("2025-06-03T00:00:00Z"));
  });

  test("a multi-unit charge over one allowance charges none of them (all or nothing, Limits 5)", async () => {
    clock.set("2025-06-03T09:00:00Z");
    const owner = newOwner();
    const account: AllowanceSpec = { name: fresh("lookups"), limit: 3, scope: "account" };
    const platform: AllowanceSpec = { name: fresh("ceiling"), limit: 100, scope: "platform" };
    const charge = (units: number) =>
      consumeAllowances(ctx, owner, [
        { spec: account, units },
        { spec: platform, units },
      ]);
    assert.equal((await charge(2)).status, "allowed");
    const refused = refusal(await charge(2));
    assert.equal(refused.status === "refused" && refused.blocked.scope, "account");
    assert.equal(refused.status === "refused" && refused.blocked.limit, 3);
    const peek = await charge(0);
    assert.deepEqual(peek.status === "allowed" && peek.allowances.map((a) => a.used), [2, 2]);
    assert.equal((await charge(1)).status, "allowed");
  });

  test("a full platform ceiling refuses with scope platform and charges the account nothing", async () => {
    clock.set("2025-06-03T10:00:00Z");
    const [first, second] = [newOwner(), newOwner()];
    const platform: AllowanceSpec = { name: fresh("ceiling"), limit: 3, scope: "platform" };
    const account: AllowanceSpec = { name: fresh("lookups"), limit: 300, scope: "account" };
    const charge = (owner: string, units: number) =>
      consumeAllowances(ctx, owner, [
        { spec: account, units },
        { spec: platform, units },
      ]);
    assert.equal((await charge(first, 2)).status, "allowed");
    assert.equal((await charge(second, 1)).status, "allowed");
    const refused = refusal(await charge(second, 1));
    assert.equal(refused.status === "refused" && refused.blocked.scope, "platform");
    assert.equal(refused.status === "refused" && refused.blocked.used, 3);
    const peek = await charge(second, 0);
    assert.deepEqual(peek.status === "allowed" && peek.allowances.map((a) => a.used), [1, 3]);
  });

  test("when both are full the account's own allowance is the one named", async () => {
    clock.set("2025-06-03T10:30:00Z");
    const owner = newOwner();
    const account: AllowanceSpec = { name: fresh("lookups"), limit: 1, scope: "account" };
    const platform: AllowanceSpec = { name: fresh("ceiling"), limit: 1, scope: "platform" };
    const charges = [
      { spec: platform, units: 1 },
      { spec: account, units: 1 },
    ];
    assert.equal((await consumeAllowances(ctx, owner, charges)).status, "allowed");
    const refused = refusal(await consumeAllowances(ctx, owner, charges));
    assert.equal(refused.status === "refused" && refused.blocked.scope, "account");
  });

  test("two charges naming one allowance are summed before the limit is checked", async () => {
    const owner = newOwner();
    const spec: AllowanceSpec = { name: fresh("lookups"), limit: 3, scope: "account" };
    const refused = await consumeAllowances(ctx, owner, [
      { spec, units: 2 },
      { spec, units: 2 },
    ]);
    assert.equal(refused.status, "refused");
    const allowed = await consumeAllowances(ctx, owner, [
      { spec, units: 1 },
      { spec, units: 2 },
    ]);
    assert.equal(allowed.status === "allowed" && allowed.allowances[0].used, 3);
  });

  test("releaseAllowances() gives units back to the day that was charged", async () => {
    clock.set("2025-06-04T08:00:00Z");
    const owner = newOwner();
    const charges = [{ spec: DATASET_COLLECTIONS, units: 1 }];
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await consumeAllowances(ctx, owner, charges));
    assert.ok(outcomes.every((outcome) => outcome.status === "allowed"));
    assert.equal((await consumeAllowances(ctx, owner, charges)).status, "refused");
    // A collection that matched nobody returns its slot (Limits 7).
    clock.set("2025-06-04T09:00:00Z");
    assert.equal(await releaseAllowances(ctx, owner, charges, { chargedAt: outcomes[9].checkedAt }), true);
    assert.equal((await consumeAllowances(ctx, owner, charges)).status, "allowed");
    // A refund after midnight must not credit the new day with units it never spent.
    clock.set("2025-06-05T00:00:05Z");
    assert.equal((await consumeAllowances(ctx, owner, charges)).status, "allowed");
    await releaseAllowances(ctx, owner, charges, { chargedAt: outcomes[0].checkedAt });
    const peek = await consumeAllowances(ctx, owner, [{ spec: DATASET_COLLECTIONS, units: 0 }]);
    assert.equal(peek.status === "allowed" && peek.allowances[0].used, 1);
  });

  test("20 parallel charges of 1 unit against a limit of 5: exactly 5 are allowed", async () => {
    clock.set("2025-06-05T12:00:00Z");
    const owner = newOwner();
    const spec: AllowanceSpec = { name: fresh("burst"), limit: 5, scope: "account" };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => consumeAllowances(ctx, owner, [{ spec, units: 1 }])));
    assert.equal(outcomes.filter((outcome) => outcome.status === "allowed").length, 5);
    assert.equal(outcomes.filter((outcome) => outcome.status === "refused").length, 15);
  });

  test("requireAllowances() throws the builder's error and returns the allowed outcome", async () => {
    clock.set("2025-06-05T13:00:00Z");
    const owner = newOwner();
    const cap = dailyActionCap("triage", "trial");
    assert.equal(cap.limit, 20);
    assert.equal(dailyActionCap("triage", "no-such-plan").limit, 20);
    assert.equal(dailyActionCap("viral_score", "ultra").limit, 2_000);
    const allowed = await requireAllowances(ctx, owner, [{ spec: cap, units: 20 }], actionCapError);
    assert.equal(allowed.allowances[0].remaining, 0);
    await assert.rejects(requireAllowances(ctx, owner, [{ spec: cap, units: 1 }], actionCapError), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "ai_action_limited");
      assert.equal(error.extra.scope, "account");
      return true;
    });
  });

  test("invalid charges are programming errors, not refusals", async () => {
    const spec: AllowanceSpec = { name: "Bad Name", limit: 1, scope: "account" };
    await assert.rejects(consumeAllowances(ctx, newOwner(), [{ spec, units: 1 }]), /must match/);
    await assert.rejects(consumeAllowances(ctx, newOwner(), [{ spec: LIVE_LOOKUPS, units: -1 }]), /invalid number of units "-1"/);
    await assert.rejects(consumeAllowances(ctx, "", [{ spec: LIVE_LOOKUPS, units: 1 }]), /no owner id/);
  });

  describe("error builders", () => {
    /** A refusal of `spec` at 2025-06-06T18:00:00Z: 6 hours (21 600 s) before midnight. */
    async function refusedBy(spec: AllowanceSpec): Promise<AllowanceRefusal> {
      clock.set("2025-06-06T18:00:00Z");
      const owner = newOwner();
      await consumeAllowances(ctx, owner, [{ spec, units: spec.limit }]);
      return refusal(await consumeAllowances(ctx, owner, [{ spec, units: 1 }]));
    }
    const midnight = epoch("2025-06-07T00:00:00Z");

    test("actionCapError(): 429 ai_action_limited with scope, retry_after, reset_at and Retry-After", async () => {
      const account = answer(actionCapError(await refusedBy({ name: fresh("triage"), limit: 2, scope: "account" })));
      assert.equal(account.status, 429);
      assert.equal(account.body.code, "ai_action_limited");
      assert.equal(account.body.scope, "account");
      assert.equal(account.body.retry_after, 21_600);
      assert.equal(account.body.reset_at, midnight);
      assert.equal(account.retryAfter, "21600");
      assert.match(String(account.body.message), /^Action cap "triage_\d+" reached for this account \(2 allowed\); retry after "2025-06-07T00:00:00Z"$/);

      const platform = answer(actionCapError(await refusedBy({ name: fresh("ceiling"), limit: 2, scope: "platform" })));
      assert.equal(platform.body.code, "ai_action_limited");
      assert.equal(platform.body.scope, "platform");
      assert.equal(platform.body.reset_at, midnight);
      assert.equal(platform.retryAfter, "21600");
      assert.doesNotMatch(String(platform.body.message), /\.$/);
    });

    test("lookupQuotaError(): own allowance used carries limit, reset_at at next UTC midnight and retry_after", async () => {
      const own = answer(lookupQuotaError(await refusedBy(LIVE_LOOKUPS)));
      assert.equal(own.status, 429);
      assert.deepEqual(Object.keys(own.body).sort(), ["code", "limit", "message", "reset_at", "retry_after"]);
      assert.equal(own.body.code, "lookup_quota_exceeded");
      assert.equal(own.body.limit, 300);
      assert.equal(own.body.reset_at, midnight);
      assert.equal(own.body.retry_after, 21_600);
      assert.equal(own.retryAfter, "21600");
    });

    test("lookupQuotaError(): platform-wide allowance used has no limit", async () => {
      const platform = answer(lookupQuotaError(await refusedBy({ name: fresh("ceiling"), limit: 1, scope: "platform" })));
      assert.equal(platform.status, 429);
      assert.deepEqual(Object.keys(platform.body).sort(), ["code", "message", "reset_at", "retry_after"]);
      assert.equal(platform.body.reset_at, midnight);
      assert.equal(platform.retryAfter, "21600");
    });

    test("lookupQuotaError({ bare: true }): the triage form's body has only code and message", async () => {
      const bare = answer(lookupQuotaError(await refusedBy(LIVE_LOOKUPS), { bare: true }));
      assert.equal(bare.status, 429);
      assert.deepEqual(Object.keys(bare.body).sort(), ["code", "message"]);
      assert.equal(bare.body.code, "lookup_quota_exceeded");
      assert.equal(bare.retryAfter, "21600");
    });

    test("collectionQuotaError(): 429 collection_quota_exceeded with limit 10 and reset_at", async () => {
      const quota = answer(collectionQuotaError(await refusedBy(DATASET_COLLECTIONS)));
      assert.equal(quota.status, 429);
      assert.equal(quota.body.code, "collection_quota_exceeded");
      assert.equal(quota.body.limit, 10);
      assert.equal(quota.body.reset_at, midnight);
      assert.equal(quota.body.retry_after, 21_600);
      assert.equal(quota.retryAfter, "21600");
    });

    test("dmLimitError(): 429 dm_limit_reached with scope and Retry-After", async () => {
      const month = answer(dmLimitError(await refusedBy({ name: fresh("dm_month"), limit: 1, scope: "account" }), { scope: "month" }));
      assert.equal(month.status, 429);
      assert.equal(month.body.code, "dm_limit_reached");
      assert.equal(month.body.scope, "month");
      assert.equal(month.retryAfter, "21600");
      assert.doesNotMatch(String(month.body.message), /spread/);
    });

    const names = { bucket: "media_daily", units: "fresh media searches" };

    test("rateLimitedAllowanceError(): 429 rate_limited naming the bucket, with limit, reset_at and Retry-After", async () => {
      const daily = answer(rateLimitedAllowanceError(await refusedBy({ name: fresh("media"), limit: 3, scope: "account" }), names));
      assert.equal(daily.status, 429);
      assert.deepEqual(Object.keys(daily.body).sort(), ["bucket", "code", "limit", "message", "reset_at", "retry_after"]);
      assert.deepEqual([daily.body.code, daily.body.bucket, daily.body.limit, daily.body.reset_at], ["rate_limited", "media_daily", 3, midnight]);
      assert.equal(daily.retryAfter, "21600");
      assert.match(String(daily.body.message), /^Daily allowance used: 3 fresh media searches per account per UTC day; resets at "2025-06-07T00:00:00Z"$/);
    });

    test("tokenBucketError(): 429 rate_limited naming the bucket, Retry-After in whole seconds until the next unit", () => {
      const state = { key: "k", burst: 20, intervalMs: 3_000, allowed: false, remaining: 0, retryAfterMs: 2_100, fullAtMs: 0 };
      const refused = answer(tokenBucketError(state, Date.parse("2025-06-06T18:00:00Z"), { ...names, bucket: "media_burst" }));
      assert.equal(refused.status, 429);
      assert.deepEqual([refused.body.code, refused.body.bucket, refused.body.limit, refused.body.retry_after], ["rate_limited", "media_burst", 20, 3]);
      assert.equal(refused.body.reset_at, epoch("2025-06-06T18:00:03Z"));
      assert.equal(refused.retryAfter, "3");
    });
  });
});

describe("rolling allowances", () => {
  const clock = manualClock("2025-07-01T06:00:00Z");
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { clock } });
  });
  after(() => harness.close());

  const at = () => new Date(clock.now());

  test("a rolling 24-hour limit frees units exactly when they leave the window", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const charge = (units: number) => consumeRolling(sql, { ownerId, name: "dm_daily_bulk", limit: 5, windowSeconds: 86_400, units, at: at() });
    const t0 = Date.parse("2025-07-01T06:00:00Z");
    clock.set(t0);
    assert.equal((await charge(3)).status, "allowed");
    clock.set(t0 + 10 * HOUR);
    const second = await charge(2);
    assert.equal(second.status, "allowed");
    assert.equal(second.status === "allowed" && second.allowances[0].remaining, 0);
    assert.equal(second.status === "allowed" && second.allowances[0].resetAt, (t0 + 24 * HOUR) / 1000);

    clock.set(t0 + 20 * HOUR);
    const refused = refusal(await charge(3));
    assert.equal(refused.status === "refused" && refused.blocked.used, 5);
    // The t0 units leave at t0 + 24 h: 4 hours from now is the Retry-After.
    assert.equal(refused.status === "refused" && refused.blocked.resetAt, (t0 + 24 * HOUR) / 1000);
    const error = answer(dmLimitError(refused, { scope: "day" }));
    assert.equal(error.status, 429);
    assert.equal(error.body.code, "dm_limit_reached");
    assert.equal(error.body.scope, "day");
    assert.equal(error.body.retry_after, 4 * 3_600);
    assert.equal(error.retryAfter, "14400");
    assert.match(String(error.body.message), /"spread": true/);

    // 2 units fit only once the 3 of t0 have gone; 3 need the same row, not the later one.
    clock.set(t0 + 24 * HOUR + 1000);
    const later = await charge(3);
    assert.equal(later.status, "allowed");
    assert.equal(later.status === "allowed" && later.allowances[0].used, 5);
    assert.equal(later.status === "allowed" && later.allowances[0].resetAt, (t0 + 34 * HOUR) / 1000);
  });

  test("a refusal waits for as many old units as the charge needs", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const t0 = Date.parse("2025-07-03T00:00:00Z");
    const charge = (units: number, offsetHours: number) =>
      consumeRolling(sql, { ownerId, name: "bulk", limit: 5, windowSeconds: 86_400, units, at: new Date(t0 + offsetHours * HOUR) });
    for (const hour of [0, 1, 2, 3, 4]) assert.equal((await charge(1, hour)).status, "allowed");
    const refused = refusal(await charge(3, 5));
    // Three single units must leave: the third, charged at t0 + 2 h, leaves at t0 + 26 h.
    assert.equal(refused.status === "refused" && refused.blocked.resetAt, (t0 + 26 * HOUR) / 1000);
    const never = refusal(await charge(6, 5));
    assert.equal(never.status === "refused" && never.blocked.resetAt, (t0 + 29 * HOUR) / 1000);
  });

  test("releaseRolling() gives back the units charged under a reference", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const charge = (units: number, reference?: string) =>
      consumeRolling(sql, { ownerId, name: "bulk", limit: 5, windowSeconds: 86_400, units, reference, at: at() });
    assert.equal((await charge(2, "campaign-1")).status, "allowed");
    assert.equal((await charge(3, "campaign-2")).status, "allowed");
    assert.equal((await charge(1)).status, "refused");
    assert.equal(await releaseRolling(sql, { ownerId, name: "bulk", reference: "campaign-2" }), 3);
    assert.equal(await releaseRolling(sql, { ownerId, name: "bulk", reference: "campaign-2" }), 0);
    const peek = await charge(0);
    assert.equal(peek.status === "allowed" && peek.allowances[0].used, 2);
  });

  test("20 parallel rolling charges of 1 unit against a limit of 5: exactly 5 are allowed and stored", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => consumeRolling(sql, { ownerId, name: "burst", limit: 5, windowSeconds: 86_400, units: 1, at: at() })),
    );
    assert.equal(outcomes.filter((outcome) => outcome.status === "allowed").length, 5);
    const [row] = await sql<{ units: number }[]>`select coalesce(sum(units), 0)::int as units from allowance_usage where owner_id = ${ownerId}`;
    assert.equal(row.units, 5);
  });

  test("a charge inside the caller's transaction rolls back with it", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const spend = (tx: Parameters<typeof consumeRolling>[0]) =>
      consumeRolling(tx, { ownerId, name: "bulk", limit: 5, windowSeconds: 86_400, units: 4, at: at() });
    await assert.rejects(
      sql.begin(async (tx) => {
        assert.equal((await spend(tx)).status, "allowed");
        throw new Error("the campaign insert failed");
      }),
      /the campaign insert failed/,
    );
    const committed = await sql.begin((tx) => spend(tx));
    assert.equal(committed.status === "allowed" && committed.allowances[0].used, 4);
  });

  test("without a time the database clock counts, and old rows are pruned", async () => {
    const sql = harness.services.sql;
    const ownerId = newOwner();
    const outcome = await consumeRolling(sql, { ownerId, name: "bulk", limit: 5, windowSeconds: 60, units: 1 });
    assert.equal(outcome.status, "allowed");
    assert.ok(Math.abs(outcome.checkedAt - Date.now()) < 60_000, "checkedAt is the database's now()");
    // Charged two windows later, the first row is pruned on the way.
    await consumeRolling(sql, { ownerId, name: "bulk", limit: 5, windowSeconds: 60, units: 1, at: new Date(outcome.checkedAt + 121_000) });
    const [row] = await sql<{ rows: number }[]>`select count(*)::int as rows from allowance_usage where owner_id = ${ownerId}`;
    assert.equal(row.rows, 1);
    assert.ok((await pruneRollingUsage(sql, { before: new Date(outcome.checkedAt + 200_000) })) >= 1);
  });
});

describe("allowances fail closed (spec rule 9)", () => {
  const clock = manualClock("2025-06-10T20:00:00Z");
  let harness: Harness;
  let ctx: Context;
  before(async () => {
    harness = await startHarness({ config: { faults: "counters", clock } });
    ctx = createContextInner({ services: harness.services });
  });
  after(() => harness.close());

  test("counters that cannot answer refuse the call: unverifiable, never allowed", async () => {
    const outcome = await consumeAllowances(ctx, newOwner(), [{ spec: LIVE_LOOKUPS, units: 1 }]);
    assert.equal(outcome.status, "unverifiable");
    assert.equal(await releaseAllowances(ctx, newOwner(), [{ spec: LIVE_LOOKUPS, units: 1 }]), false);
    await assert.rejects(requireAllowances(ctx, newOwner(), [{ spec: LIVE_LOOKUPS, units: 1 }], lookupQuotaError), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "lookup_quota_exceeded");
      return true;
    });
  });

  test("an unverifiable action cap answers ai_action_limited with scope platform and a 30 s reset_at", async () => {
    const error = answer(actionCapError(refusal(await consumeAllowances(ctx, newOwner(), [{ spec: dailyActionCap("triage", "pro"), units: 1 }]))));
    assert.equal(error.status, 429);
    assert.equal(error.body.code, "ai_action_limited");
    assert.equal(error.body.scope, "platform");
    assert.equal(error.body.retry_after, 30);
    assert.equal(error.body.reset_at, epoch("2025-06-10T20:00:30Z"));
    assert.equal(error.retryAfter, "30");
  });

  test("an unverifiable lookup counter answers lookup_quota_exceeded without limit and with a short retry_after", async () => {
    const unverifiable = refusal(await consumeAllowances(ctx, newOwner(), [{ spec: LIVE_LOOKUPS, units: 1 }]));
    const full = answer(lookupQuotaError(unverifiable));
    assert.equal(full.status, 429);
    assert.deepEqual(Object.keys(full.body).sort(), ["code", "message", "reset_at", "retry_after"]);
    assert.equal(full.body.retry_after, 30);
    assert.equal(full.body.reset_at, epoch("2025-06-11T00:00:00Z"));
    assert.equal(full.retryAfter, "30");
    const bare = answer(lookupQuotaError(unverifiable, { bare: true }));
    assert.deepEqual(Object.keys(bare.body).sort(), ["code", "message"]);
    assert.equal(bare.retryAfter, "30");
  });

  test("unverifiable collection and DM counters answer their own codes with a short retry", async () => {
    const unverifiable = refusal(await consumeAllowances(ctx, newOwner(), [{ spec: DATASET_COLLECTIONS, units: 1 }]));
    const collection = answer(collectionQuotaError(unverifiable));
    assert.equal(collection.body.code, "collection_quota_exceeded");
    assert.equal(collection.body.limit, undefined);
    assert.equal(collection.retryAfter, "30");
    const dm = answer(dmLimitError(unverifiable, { scope: "day" }));
    assert.equal(dm.body.code, "dm_limit_reached");
    assert.equal(dm.body.scope, "day");
    assert.equal(dm.retryAfter, "30");
  });
});
