/** Best times to post (`GET /v1/posts/best-times`, beyond the spec): grouping, scoring, time zones and bad input. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { upsertOwnPosts } from "../core/content/content_sync_queries.ts";
import type { OwnPostRow } from "../core/content/own_content_rows.ts";
import { PRIOR_POSTS, scoreSlots } from "../core/content/best_times.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const DAY = 86_400_000;
// A zone without daylight saving, so three weeks of one UTC hour are one local hour too.
const ZONE = "Asia/Tokyo";

/** ISO weekday (1 Monday) and hour of `at` in `zone`, read with Intl rather than SQL. */
function weekdayHour(at: Date, zone: string): { weekday: number; hour: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", hour: "numeric", hourCycle: "h23" }).formatToParts(at);
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.find((part) => part.type === "weekday")!.value) + 1;
  return { weekday, hour: Number(parts.find((part) => part.type === "hour")!.value) };
}

describe("best times to post", () => {
  const call = (path: string) => transports(harness)[1].request("GET", path, { key: harness.world.keys.write });
  const account = () => harness.world.accounts.linked as string;
  let serial = 0;
  const row = (at: Date, impressions: number, extra: Partial<OwnPostRow> = {}): OwnPostRow => {
    serial++;
    return {
      account_id: account(),
      x_post_id: String(9_100_000_000 + serial),
      category: "post",
      is_quote: false,
      is_thread_continuation: false,
      is_thread: false,
      text: `post ${serial}`,
      posted_at: at,
      conversation_id: String(9_100_000_000 + serial),
      reply_to_x_post_id: null,
      reply_to_user_id: null,
      reposted_x_post_id: null,
      synced_at: new Date(),
      likes: Math.round(impressions / 10),
      replies: 0,
      reposts: 0,
      quotes: 0,
      bookmarks: 0,
      impressions,
      ...extra,
    };
  };
  // Three weeks of the same hour (strong), three of another (weak), one lucky post.
  const strong = new Date(Date.now() - 2 * DAY);
  const weak = new Date(strong.getTime() - 5 * 3600_000);
  const lucky = new Date(strong.getTime() - 26 * 3600_000);

  before(async () => {
    const patched = await transports(harness)[1].request("PATCH", "/v1/queue-settings", {
      key: harness.world.keys.write,
      body: { account_id: account(), timezone: ZONE },
    });
    assert.equal(patched.status, 200);
    await upsertOwnPosts(harness.services.sql, [
      ...[0, 7, 14].map((weeks) => row(new Date(strong.getTime() - weeks * DAY), 400)),
      ...[0, 7, 14].map((weeks) => row(new Date(weak.getTime() - weeks * DAY), 50)),
      row(lucky, 1000),
      // Not posts of the account's own timing: replies, reposts and thread continuations.
      row(strong, 90_000, { category: "reply" }),
      row(strong, 90_000, { category: "repost" }),
      row(strong, 90_000, { is_thread_continuation: true }),
      // Older than the range.
      row(new Date(Date.now() - 120 * DAY), 90_000),
    ]);
  });

  test("groups the account's posts by weekday and hour in the queue's time zone and ranks slots with enough posts", async () => {
    const answer = await call(`/v1/posts/best-times?account_id=${account()}`);
    assert.equal(answer.status, 200);
    const data = answer.body.data;
    assert.equal(data.timezone, ZONE);
    assert.equal(data.posts, 7);
    const average = (3 * 400 + 3 * 50 + 1000) / 7;
    assert.equal(data.avg_impressions, Math.round(average * 10) / 10);
    const strongSlot = weekdayHour(strong, ZONE);
    const weakSlot = weekdayHour(weak, ZONE);
    const luckySlot = weekdayHour(lucky, ZONE);
    assert.deepEqual(
      data.best.map((slot: any) => [slot.weekday, slot.hour, slot.posts]),
      [
        [strongSlot.weekday, strongSlot.hour, 3],
        [weakSlot.weekday, weakSlot.hour, 3],
      ],
    );
    const expected = (1200 + PRIOR_POSTS * average) / (3 + PRIOR_POSTS) / average;
    assert.equal(data.best[0].score, Math.round(expected * 1000) / 1000);
    assert.equal(data.best[0].avg_impressions, 400);
    assert.equal(data.best[0].engagement_rate, 0.1);
    // The lucky hour is listed, but one post is not enough to recommend it.
    const luckyRow = data.slots.find((slot: any) => slot.weekday === luckySlot.weekday && slot.hour === luckySlot.hour);
    assert.equal(luckyRow.posts, 1);
    assert.ok(luckyRow.score > data.best[0].score);
  });

  test("answers in another time zone when asked, and reads only `days` of posts", async () => {
    const utc = await call(`/v1/posts/best-times?account_id=${account()}&timezone=utc`);
    assert.equal(utc.status, 200);
    assert.equal(utc.body.data.timezone, "UTC");
    const strongUtc = weekdayHour(strong, "UTC");
    assert.deepEqual([utc.body.data.best[0].weekday, utc.body.data.best[0].hour], [strongUtc.weekday, strongUtc.hour]);
    const week = await call(`/v1/posts/best-times?account_id=${account()}&days=7`);
    assert.equal(week.body.data.posts, 3);
    assert.deepEqual(week.body.data.best, []);
  });

  test("an account without posts answers no slots and no recommendation", async () => {
    // The main account's content is not synced in this harness: it has no posts of its own.
    const answer = await call("/v1/posts/best-times");
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.timezone, "UTC");
    assert.deepEqual([answer.body.data.posts, answer.body.data.avg_impressions, answer.body.data.slots, answer.body.data.best], [0, 0, [], []]);
  });

  test("bad input answers 400 invalid_parameter", async () => {
    for (const query of ["days=6", "days=367", "days=ten", "timezone=Mars/Olympus"]) {
      const answer = await call(`/v1/posts/best-times?${query}`);
      assert.equal(answer.status, 400, query);
      assert.equal(answer.body.error.code, "invalid_parameter", query);
    }
  });

  test("the score is 1 for an average slot and the average of no posts is 0", () => {
    const range = { timezone: "UTC", since: new Date(0), until: new Date(DAY) };
    const even = scoreSlots(
      [
        { weekday: 1, hour: 9, posts: 3, impressions: 300, engagements: 30 },
        { weekday: 2, hour: 9, posts: 3, impressions: 300, engagements: 0 },
      ],
      range,
    );
    assert.deepEqual(
      even.slots.map((slot) => slot.score),
      [1, 1],
    );
    assert.equal(even.slots[1].engagement_rate, 0);
    const empty = scoreSlots([], range);
    assert.deepEqual([empty.posts, empty.avg_impressions, empty.best.length], [0, 0, 0]);
  });
});
