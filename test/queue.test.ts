/**
 * Queue settings (supplement: Queue and C1; spec rule 6, rule 9): defaults, PUT and PATCH,
 * bounds, the reflow of queued posts when slots change, DST-correct slot times, the next
 * free slot, shared accounts, and the scheduler fault.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { freshLinkedAccount, insertPostRow, insertQueuedRows, postRow, timesOf } from "./support/scheduled_post_rows.ts";
import { wallTimeToUtc } from "../core/queue/zoned_time.ts";
import { slotOccurrences } from "../core/queue/slot_occurrences.ts";
import { nextFreeSlot } from "../core/queue/next_free_slot.ts";
import { DEFAULT_SLOTS } from "../core/queue/queue_defaults.ts";
import { ApiError } from "../core/errors.ts";

// Monday 2027-03-08 12:00 UTC; New York moves its clocks forward on Sunday 2027-03-14.
const NOW = "2027-03-08T12:00:00Z";
const clock = manualClock(NOW);
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const iso = (ms: number) => new Date(ms).toISOString();

let harness: Harness;
before(async () => {
  harness = await startHarness({ config: { clock } });
});
after(() => harness.close());

describe("wall times in a time zone", () => {
  test("a wall time in a zone converts to UTC on both sides of a DST change", () => {
    const ny = (month: number, day: number, hour: number, minute = 0) => iso(wallTimeToUtc("America/New_York", { year: 2027, month, day, hour, minute }));
    assert.equal(ny(3, 13, 9), "2027-03-13T14:00:00.000Z");
    assert.equal(ny(3, 14, 9), "2027-03-14T13:00:00.000Z");
    // 02:30 never happens on 2027-03-14 in New York: it moves forward by the gap.
    assert.equal(ny(3, 14, 2, 30), "2027-03-14T07:30:00.000Z");
    // 01:30 happens twice on 2027-11-07: the earlier one (EDT) is taken.
    assert.equal(ny(11, 7, 1, 30), "2027-11-07T05:30:00.000Z");
    assert.equal(iso(wallTimeToUtc("Asia/Kolkata", { year: 2027, month: 6, day: 1, hour: 9, minute: 0 })), "2027-06-01T03:30:00.000Z");
  });

  test("slot occurrences keep the wall time across DST and produce a shared instant once", () => {
    const slots = [
      { time: "09:00", days: EVERY_DAY },
      { time: "02:30", days: [0] },
      { time: "03:30", days: [0] },
    ];
    const instants = [...slotOccurrences(slots, "America/New_York", Date.parse("2027-03-13T00:00:00Z"), Date.parse("2027-03-15T23:59:00Z"))].map(iso);
    assert.deepEqual(instants, ["2027-03-13T14:00:00.000Z", "2027-03-14T07:30:00.000Z", "2027-03-14T13:00:00.000Z", "2027-03-15T13:00:00.000Z"]);
  });
});

describe("nextFreeSlot", () => {
  test("answers the first slot at least 60 s ahead that no queued post takes, in the account's zone", async () => {
    const account = await freshLinkedAccount(harness.services.sql, "next");
    const now = new Date(NOW);
    // Defaults (09:00, 13:00, 17:00 UTC): 12:00 -> 13:00 today.
    assert.equal((await nextFreeSlot(harness.services.sql, account, now)).toISOString(), "2027-03-08T13:00:00.000Z");
    assert.equal((await nextFreeSlot(harness.services.sql, account, new Date("2027-03-08T12:59:30Z"))).toISOString(), "2027-03-08T17:00:00.000Z");
    await insertPostRow(harness.services.sql, account, { scheduledFor: "2027-03-08T13:00:00Z" });
    await insertPostRow(harness.services.sql, account, { status: "draft", scheduledFor: "2027-03-08T17:00:00Z" });
    assert.equal((await nextFreeSlot(harness.services.sql, account, now)).toISOString(), "2027-03-08T17:00:00.000Z");

    await harness.services
      .sql`insert into queue_settings (account_id, slots, timezone) values (${account}, ${harness.services.sql.json([{ time: "09:00", days: [0] }])}, 'America/New_York')`;
    // Sunday 2027-03-14 09:00 is already EDT (UTC-4).
    assert.equal((await nextFreeSlot(harness.services.sql, account, now)).toISOString(), "2027-03-14T13:00:00.000Z");
  });

  test("no slots answers 400 invalid_parameter naming scheduled_for", async () => {
    const account = await freshLinkedAccount(harness.services.sql, "noslot");
    await harness.services.sql`insert into queue_settings (account_id, slots) values (${account}, ${harness.services.sql.json([])})`;
    await assert.rejects(nextFreeSlot(harness.services.sql, account, new Date(NOW)), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "invalid_parameter");
      assert.equal(error.status, 400);
      assert.match(error.message, /"scheduled_for"/);
      return true;
    });
  });
});

describeMatrix(({ index, name, transport }) => {
  describe(`queue settings over ${name}`, () => {
    const label = index === 0 ? "a" : "b";
    const request = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport(harness).request(method, path, { key, body });
    const read = (account: string) => request("GET", `/v1/queue-settings?account_id=${account}`);
    const patch = (account: string, body: Record<string, unknown>) => request("PATCH", "/v1/queue-settings", { account_id: account, ...body });
    const put = (account: string, body: Record<string, unknown>) => request("PUT", "/v1/queue-settings", { account_id: account, ...body });
    const fresh = (name: string) => freshLinkedAccount(harness.services.sql, `${name}${label}`);

    test("an untouched account reads the default slots and UTC", async () => {
      const account = await fresh("def");
      const answer = await read(account);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, {
        account_id: account,
        slots: DEFAULT_SLOTS.map((slot) => ({ time: slot.time, days: [...slot.days] })),
        timezone: "UTC",
        slots_are_default: true,
        timezone_is_default: true,
      });
      const main = await request("GET", "/v1/queue-settings");
      assert.equal(main.status, 200);
      assert.equal(main.body.data.account_id, harness.world.accounts.main);
    });

    test("PATCH changes only the fields sent; PUT replaces both; null returns a field to its default", async () => {
      const account = await fresh("pp");
      const slots = [
        { time: "18:30", days: [5, 1, 3] },
        { time: "08:00", days: [1] },
      ];
      const first = await patch(account, { slots });
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.data.slots, [
        { time: "08:00", days: [1] },
        { time: "18:30", days: [1, 3, 5] },
      ]);
      assert.equal(first.body.data.slots_are_default, false);
      assert.equal(first.body.data.timezone_is_default, true);
      assert.deepEqual(first.body.data.reflow, { moved: 0, skipped: 0, bailed: false });

      const zoned = await patch(account, { timezone: "europe/london" });
      assert.equal(zoned.body.data.timezone, "Europe/London");
      assert.equal(zoned.body.data.slots.length, 2);
      assert.deepEqual((await read(account)).body.data.timezone, "Europe/London");

      const replaced = await put(account, { slots: [{ time: "07:15", days: [0] }] });
      assert.equal(replaced.status, 200);
      assert.deepEqual(replaced.body.data.slots, [{ time: "07:15", days: [0] }]);
      assert.equal(replaced.body.data.timezone, "UTC");
      assert.equal(replaced.body.data.timezone_is_default, true);

      const reset = await patch(account, { slots: null, timezone: "Asia/Tokyo" });
      assert.equal(reset.body.data.slots_are_default, true);
      assert.equal(reset.body.data.slots.length, DEFAULT_SLOTS.length);
      assert.equal(reset.body.data.timezone, "Asia/Tokyo");

      const cleared = await put(account, { slots: [], timezone: "Asia/Tokyo" });
      assert.deepEqual(cleared.body.data.slots, []);
      assert.equal(cleared.body.data.slots_are_default, false);
      assert.deepEqual((await read(account)).body.data.slots, []);

      const empty = await patch(account, {});
      assert.equal(empty.status, 400);
      assert.equal(empty.body.error.code, "invalid_parameter");
    });

    test("bounds answer 400 invalid_parameter naming the field", async () => {
      const account = await fresh("bad");
      const many = Array.from({ length: 51 }, (_, i) => ({
        time: `${String(Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`,
        days: [1],
      }));
      for (const [body, field] of [
        [{ slots: many }, "slots"],
        [
          {
            slots: [
              { time: "09:00", days: [1] },
              { time: "09:00", days: [2] },
            ],
          },
          "slots[1].time",
        ],
        [{ slots: [{ time: "09:00", days: [] }] }, "slots[0].days"],
        [{ slots: [{ time: "09:00", days: [7] }] }, "slots[0].days[0]"],
        [{ slots: [{ time: "09:00", days: [1, 1] }] }, "slots[0].days"],
        [{ slots: [{ time: "9:00", days: [1] }] }, "slots[0].time"],
        [{ slots: [{ time: "24:00", days: [1] }] }, "slots[0].time"],
        [{ slots: "09:00" }, "slots"],
        [{ timezone: "Mars/Olympus_Mons" }, "timezone"],
        [{ timezone: "+01:00" }, "timezone"],
        [{ timezone: "" }, "timezone"],
      ] as const) {
        for (const method of ["PATCH", "PUT"]) {
          const answer = await request(method, "/v1/queue-settings", { account_id: account, ...body });
          assert.equal(answer.status, 400, `${method} ${JSON.stringify(body)}`);
          assert.equal(answer.body.error.code, "invalid_parameter");
          assert.match(answer.body.error.message, new RegExp(`Invalid "${field.replace(/[[\]]/g, "\\$&")}"`), answer.body.error.message);
        }
      }
      const fifty = await patch(account, { slots: many.slice(0, 50) });
      assert.equal(fifty.status, 200);
      assert.equal(fifty.body.data.slots.length, 50);
    });

    test("a slot change moves the n-th occupied old slot to the n-th new slot; gaps and hand-picked times stay", async () => {
      const account = await fresh("flow");
      const sql = harness.services.sql;
      await patch(account, { slots: [{ time: "09:00", days: EVERY_DAY }] });
      // Old occurrences from Mon 12:00: Tue 09:00 (1st), Wed 09:00 (2nd, empty), Thu 09:00 (3rd), Fri 09:00 (4th), Sat 09:00 (5th).
      const tue = await insertPostRow(sql, account, { scheduledFor: "2027-03-09T09:00:00Z" });
      const thu = await insertPostRow(sql, account, { scheduledFor: "2027-03-11T09:00:00Z" });
      const thuTwin = await insertPostRow(sql, account, { scheduledFor: "2027-03-11T09:00:00Z" });
      const fri = await insertPostRow(sql, account, { scheduledFor: "2027-03-12T09:00:00Z" });
      const sat = await insertPostRow(sql, account, { scheduledFor: "2027-03-13T09:00:00Z" });
      const handPicked = await insertPostRow(sql, account, { scheduledFor: "2027-03-10T10:15:00Z" });
      // Sits on Thu 18:00, the 4th new occurrence: the Fri post (4th old) must stay.
      const blocker = await insertPostRow(sql, account, { scheduledFor: "2027-03-11T18:00:00Z" });
      const draft = await insertPostRow(sql, account, { status: "draft", scheduledFor: "2027-03-09T09:00:00Z" });
      const sent = await insertPostRow(sql, account, { status: "sent", scheduledFor: "2027-03-09T09:00:00Z" });
      const versions = await Promise.all([tue, thu, fri].map(async (id) => (await postRow(sql, id)).publish_version));

      // New occurrences from Mon 12:00: Mon 18:00 (1st), Tue 18:00 (2nd), Wed 18:00 (3rd), Thu 18:00 (4th), Fri 18:00 (5th).
      const answer = await patch(account, { slots: [{ time: "18:00", days: EVERY_DAY }] });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data.reflow, { moved: 4, skipped: 1, bailed: false });
      assert.deepEqual(await timesOf(sql, [tue, thu, thuTwin, fri, sat, handPicked, blocker, draft, sent]), [
        "2027-03-08T18:00:00.000Z",
        "2027-03-10T18:00:00.000Z",
        "2027-03-10T18:00:00.000Z",
        "2027-03-12T09:00:00.000Z",
        "2027-03-12T18:00:00.000Z",
        "2027-03-10T10:15:00.000Z",
        "2027-03-11T18:00:00.000Z",
        "2027-03-09T09:00:00.000Z",
        "2027-03-09T09:00:00.000Z",
      ]);
      // Moved posts are re-armed for the publisher at their new time; the skipped one is not.
      const after = await Promise.all([tue, thu, fri].map(async (id) => (await postRow(sql, id)).publish_version));
      assert.deepEqual(after, [versions[0] + 1, versions[1] + 1, versions[2]]);
      const jobs = await sql<{ run_at: Date }[]>`select run_at from jobs where unique_key = ${`publish:${tue}:${after[0]}`}`;
      assert.deepEqual(
        jobs.map((job) => job.run_at.toISOString()),
        ["2027-03-08T18:00:00.000Z"],
      );

      const again = await patch(account, { slots: [{ time: "18:00", days: EVERY_DAY }] });
      assert.deepEqual(again.body.data.reflow, { moved: 0, skipped: 0, bailed: false });
    });

    test("a timezone-only change never moves posts; timezone plus slots in one call usually moves nothing", async () => {
      const account = await fresh("tz");
      const sql = harness.services.sql;
      await patch(account, { slots: [{ time: "09:00", days: EVERY_DAY }] });
      const ids = [
        await insertPostRow(sql, account, { scheduledFor: "2027-03-09T09:00:00Z" }),
        await insertPostRow(sql, account, { scheduledFor: "2027-03-10T09:00:00Z" }),
      ];
      const zoneOnly = await patch(account, { timezone: "America/New_York" });
      assert.deepEqual(zoneOnly.body.data.reflow, { moved: 0, skipped: 0, bailed: false });
      await patch(account, { timezone: null });
      // The old 09:00 is read in the new zone (14:00Z), where no post sits.
      const both = await patch(account, { timezone: "America/New_York", slots: [{ time: "10:00", days: EVERY_DAY }] });
      assert.deepEqual(both.body.data.reflow, { moved: 0, skipped: 0, bailed: false });
      assert.deepEqual(await timesOf(sql, ids), ["2027-03-09T09:00:00.000Z", "2027-03-10T09:00:00.000Z"]);
    });

    test("slot times follow the account's zone across DST when posts are reflowed", async () => {
      const account = await fresh("dst");
      const sql = harness.services.sql;
      await patch(account, { timezone: "America/New_York", slots: [{ time: "09:00", days: EVERY_DAY }] });
      // 09:00 New York: Fri 2027-03-12 is EST (14:00Z, 5th occurrence from Mon 07:00 local), Mon 03-15 is EDT (13:00Z, 8th).
      const fri = await insertPostRow(sql, account, { scheduledFor: "2027-03-12T14:00:00Z" });
      const mon = await insertPostRow(sql, account, { scheduledFor: "2027-03-15T13:00:00Z" });
      const answer = await patch(account, { slots: [{ time: "10:00", days: EVERY_DAY }] });
      assert.deepEqual(answer.body.data.reflow, { moved: 2, skipped: 0, bailed: false });
      assert.deepEqual(await timesOf(sql, [fri, mon]), ["2027-03-12T15:00:00.000Z", "2027-03-15T14:00:00.000Z"]);
    });

    test("clearing every slot leaves posts on old slots where they are (counted as skipped)", async () => {
      const account = await fresh("clr");
      const sql = harness.services.sql;
      const onSlot = await insertPostRow(sql, account, { scheduledFor: "2027-03-09T13:00:00Z" });
      await insertPostRow(sql, account, { scheduledFor: "2027-03-09T13:20:00Z" });
      const answer = await put(account, { slots: [] });
      assert.deepEqual(answer.body.data.reflow, { moved: 0, skipped: 1, bailed: false });
      assert.deepEqual(await timesOf(sql, [onSlot]), ["2027-03-09T13:00:00.000Z"]);
    });

    test("more than 500 posts on old slots bails: settings saved, queue untouched, rerun safe", async () => {
      const account = await fresh("bail");
      const sql = harness.services.sql;
      // The first 501 default occurrences (09:00, 13:00, 17:00 UTC) from Mon 12:00.
      const times = [...slotOccurrences(DEFAULT_SLOTS, "UTC", Date.parse(NOW) + 60_000, Date.parse("2028-01-01T00:00:00Z"))]
        .slice(0, 501)
        .map((ms) => new Date(ms));
      const ids = await insertQueuedRows(sql, account, times);
      const slots = [{ time: "10:00", days: EVERY_DAY }];
      const answer = await patch(account, { slots });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data.reflow, { moved: 0, skipped: 501, bailed: true });
      assert.deepEqual((await read(account)).body.data.slots, slots);
      const [row] = await sql<{ count: number }[]>`
        select count(*)::int as count from scheduled_posts where id = any(${sql.array(ids)}::bigint[]) and scheduled_for = any(${sql.array(times.map((t) => t.toISOString()))}::timestamptz[])`;
      assert.equal(row.count, 501);
      const rerun = await patch(account, { slots });
      assert.deepEqual(rerun.body.data.reflow, { moved: 0, skipped: 0, bailed: false });
    });

    test("a post being published bails the reflow and nothing moves", async () => {
      const account = await fresh("pub");
      const sql = harness.services.sql;
      const busy = await insertPostRow(sql, account, { scheduledFor: "2027-03-09T09:00:00Z" });
      const other = await insertPostRow(sql, account, { scheduledFor: "2027-03-09T13:00:00Z" });
      const { publish_version } = await postRow(sql, busy);
      await sql`insert into publish_parts (post_id, publish_version, part_index, state, token, started_at)
                values (${busy}::bigint, ${publish_version}, 0, 'publishing', 'tok', ${new Date(NOW)})`;
      const answer = await patch(account, { slots: [{ time: "11:00", days: EVERY_DAY }] });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data.reflow, { moved: 0, skipped: 2, bailed: true });
      assert.deepEqual(await timesOf(sql, [busy, other]), ["2027-03-09T09:00:00.000Z", "2027-03-09T13:00:00.000Z"]);
    });

    test("shared accounts may write queue settings, viewer and editor alike (rule 6)", async () => {
      for (const account of [harness.world.accounts.shared, harness.world.accounts.editor_shared, harness.world.accounts.linked_shared]) {
        const answer = await patch(account, { timezone: "Europe/Paris", slots: [{ time: `1${index}:45`, days: [2] }] });
        assert.equal(answer.status, 200, account);
        assert.equal(answer.body.data.account_id, account);
        assert.deepEqual(answer.body.data.slots, [{ time: `1${index}:45`, days: [2] }]);
        const replaced = await put(account, { timezone: "Europe/Paris" });
        assert.equal(replaced.status, 200);
        assert.equal((await read(account)).body.data.slots_are_default, true);
      }
    });

    test("an account outside the key answers 404 account_not_found; a malformed one 400; a read key 403", async () => {
      for (const answer of [
        await read(harness.world.accounts.other_user),
        await patch(harness.world.accounts.other_user, { timezone: "UTC" }),
        await put(harness.world.accounts.other_user, { timezone: "UTC" }),
      ]) {
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error.code, "account_not_found");
      }
      const malformed = await read("abc");
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.code, "invalid_parameter");
      const readOnly = await request("PATCH", "/v1/queue-settings", { timezone: "UTC" }, harness.world.keys.read);
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error.code, "insufficient_scope");
    });
  });
});

describe("queue settings while the scheduler is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "scheduler", clock } });
  });
  after(() => failing.close());

  describeMatrix(({ index, name }) => {
    test(`every queue call answers 503 upstream_unavailable and changes nothing (${name})`, async () => {
      const transport = transports(failing)[index];
      const key = failing.world.keys.write;
      for (const [method, body] of [
        ["GET", undefined],
        ["PUT", { timezone: "Asia/Tokyo" }],
        ["PATCH", { timezone: "Asia/Tokyo" }],
      ] as const) {
        const answer = await transport.request(method, "/v1/queue-settings", { key, body });
        assert.equal(answer.status, 503, method);
        assert.equal(answer.body.error.code, "upstream_unavailable");
      }
      const rows = await failing.services.sql`select 1 from queue_settings where account_id = ${failing.world.accounts.main}`;
      assert.equal(rows.length, 0);
    });
  });
});
