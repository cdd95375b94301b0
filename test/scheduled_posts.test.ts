/**
 * Scheduled posts (spec: Scheduled post, States, Scheduling, Errors, Constants,
 * Versioning 4-5; supplement: Scheduling, Tags): every field rule, the statuses and the
 * post quota, tags on posts, the list filters and the fail-closed scheduling service.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { PNG_1X1, GIF_1X1, uploadMedia } from "./support/media_bytes.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();
const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** The net quota units a post holds (1 while queued, 0 once refunded). */
async function quotaBalance(postId: string): Promise<number> {
  const [row] = await harness.services.sql<{ balance: number }[]>`
    select coalesce(sum(delta), 0)::int as balance from post_quota_ledger where subject = ${`post:${postId}`}`;
  return row.balance;
}

describeMatrix(({ index, name, transport }) => {
  describe(`scheduled posts over ${name}`, () => {
    const call = (method: string, path: string, body?: unknown, key = harness.world.keys.write, headers: Record<string, string> = {}) =>
      transport(harness).request(method, path, { key, body, headers });
    const create = (body: unknown, key?: string, headers?: Record<string, string>) => call("POST", "/v1/scheduled-posts", body, key, headers);
    const unique = (label: string) => `${label} ${index} ${Math.random().toString(36).slice(2, 8)}`;

    test("a post without scheduled_for is a draft; the text shorthand makes one part", async () => {
      const created = await create({ text: unique("first draft") });
      assert.equal(created.status, 201);
      const post = created.body.data;
      assert.equal(post.status, "draft");
      assert.equal(post.scheduled_for, null);
      assert.equal(typeof post.id, "string");
      assert.equal(post.parts.length, 1);
      assert.deepEqual(post.parts[0].media, []);
      assert.equal(post.account_id, harness.world.accounts.main);
      assert.deepEqual(post.tags, []);
      assert.equal(await quotaBalance(post.id), 0);
      const read = await call("GET", `/v1/scheduled-posts/${post.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.data, post);
    });

    test("a timed post is scheduled and takes one quota unit; a 25-part thread is accepted", async () => {
      const parts = Array.from({ length: 25 }, (_, i) => ({ text: `${unique("part")} ${i + 1}/25` }));
      const created = await create({ parts, scheduled_for: inOneDay(), title: "Thread", scratchpad: "notes" });
      assert.equal(created.status, 201);
      assert.equal(created.body.data.status, "scheduled");
      assert.equal(created.body.data.parts.length, 25);
      assert.equal(created.body.data.title, "Thread");
      assert.equal(await quotaBalance(created.body.data.id), 1);
      const [job] = await harness.services.sql<{ run_at: Date }[]>`
        select run_at from jobs where kind = 'publish_scheduled_post' and payload->>'postId' = ${created.body.data.id}`;
      assert.equal(job.run_at.toISOString(), created.body.data.scheduled_for);
    });

    test("field bounds answer 400 invalid_parameter naming the field", async () => {
      const cases: [unknown, string][] = [
        [{}, "parts"],
        [{ parts: [] }, "parts"],
        [{ parts: Array.from({ length: 26 }, () => ({ text: "x" })) }, "parts"],
        [{ parts: [{ text: "x".repeat(12_501) }, { text: "x".repeat(12_500) }] }, "parts"],
        [{ text: "a", parts: [{ text: "b" }] }, "text"],
        [{ text: "" }, "parts"],
        [{ text: "   " }, "parts"],
        [{ parts: [{ text: "ok" }, { text: "" }] }, "parts[1].text"],
        [{ text: "a", title: "t".repeat(301) }, "title"],
        [{ text: "a", scratchpad: "s".repeat(30_001) }, "scratchpad"],
        [{ text: "a", tags: Array.from({ length: 21 }, (_, i) => i + 1) }, "tags"],
        [{ text: "a", tags: [999_999] }, "tags"],
        [{ text: "a", tags: ["12a"] }, "tags"],
        [{ text: "a", tags: [1.5] }, "tags"],
        [{ text: "a", tags: ["0"] }, "tags"],
        [{ text: "a", tags: [" 3"] }, "tags"],
        [{ text: "a", tags: [true] }, "tags"],
        [{ text: "a", tags: ["99999999999999999"] }, "tags"],
        [{ parts: [{ text: "a", media: [{ object_key: "k", alt_text: "a".repeat(1001) }] }] }, "alt_text"],
        [{ parts: [{ text: "a", media: Array.from({ length: 5 }, (_, i) => ({ object_key: `k${i}` })) }] }, "media"],
        [{ text: "a", scheduled_for: "2030-01-01T09:00:00" }, "scheduled_for"],
        [{ text: "a", scheduled_for: "tomorrow" }, "scheduled_for"],
        [{ text: "a", scheduled_for: new Date(Date.now() + 30_000).toISOString() }, "scheduled_for"],
        [{ text: "a", scheduled_for: new Date(Date.now() - 3_600_000).toISOString() }, "scheduled_for"],
        [{ text: "a", scheduled_for: new Date(Date.now() + 19 * 31 * 86_400_000).toISOString() }, "scheduled_for"],
        [{ text: "a", auto_retweet: { after_hours: 13 } }, "after_hours"],
        [{ text: "a", auto_delete: { after_hours: 0 } }, "after_hours"],
        // A well-formed `auto_plug` naming an unknown template is 400 unknown_plug_template
        // (test/plug_templates.test.ts); a missing or out-of-range threshold is a bad parameter.
        [{ text: "a", auto_plug: { template_id: "t1" } }, "threshold"],
        [{ text: "a", auto_plug: { template_id: "t1", threshold: 0 } }, "threshold"],
      ];
      for (const [body, field] of cases) {
        const answer = await create(body);
        assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 120));
        assert.equal(answer.body.error.code, "invalid_parameter", JSON.stringify(body).slice(0, 120));
        assert.match(answer.body.error.message, new RegExp(field.replace(/[[\]]/g, "\\$&")), JSON.stringify(body).slice(0, 120));
      }
    });

    test("a top-level media field answers 400 invalid_parameter pointing at parts[].media", async () => {
      const answer = await create({ text: "hello", media: [{ object_key: "abc" }] });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_parameter");
      assert.match(answer.body.error.message, /parts\[\]\.media/);
    });

    test("unknown and foreign object keys answer 400 invalid_media; never-uploaded ones media_not_uploaded", async () => {
      const unknown = await create({ parts: [{ text: "x", media: [{ object_key: "no-such-key" }] }] });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.code, "invalid_media");
      const foreign = await uploadMedia(harness, index, harness.world.keys.other_user, PNG_1X1, "image/png");
      const foreignAnswer = await create({ parts: [{ text: "x", media: [{ object_key: foreign }] }] });
      assert.equal(foreignAnswer.status, 400);
      assert.equal(foreignAnswer.body.error.code, "invalid_media");
      const announced = await call("POST", "/v1/media", { filename: "later.png", file_type: "image/png", size: PNG_1X1.length });
      assert.equal(announced.status, 201);
      const pending = await create({ parts: [{ text: "x", media: [{ object_key: announced.body.data.object_key }] }] });
      assert.equal(pending.status, 400);
      assert.equal(pending.body.error.code, "media_not_uploaded");
    });

    test("media-only parts are accepted; up to 4 images or exactly 1 GIF per part", async () => {
      const image = await uploadMedia(harness, index, harness.world.keys.write, PNG_1X1, "image/png");
      const gif = await uploadMedia(harness, index, harness.world.keys.write, GIF_1X1, "image/gif");
      const mediaOnly = await create({ parts: [{ media: [{ object_key: image, alt_text: "A dot" }] }] });
      assert.equal(mediaOnly.status, 201);
      assert.deepEqual(mediaOnly.body.data.parts, [{ text: "", media: [{ object_key: image, alt_text: "A dot" }] }]);
      const mixed = await create({ parts: [{ text: "x", media: [{ object_key: gif }, { object_key: image }] }] });
      assert.equal(mixed.status, 400);
      assert.equal(mixed.body.error.code, "invalid_parameter");
      assert.match(mixed.body.error.message, /GIF/);
      const gifOnly = await create({ parts: [{ text: "", media: [{ object_key: gif }] }] });
      assert.equal(gifOnly.status, 201);
    });

    test("a part too long for an account without the premium tier answers 400 invalid_request", async () => {
      const answer = await create({ text: "word ".repeat(80), account_id: harness.world.accounts.linked, scheduled_for: inOneDay() });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_request");
      const premium = await create({ text: "word ".repeat(80) });
      assert.equal(premium.status, 201);
    });

    test("tag ids may be sent as decimal strings (the real service's CLI sends --tag that way)", async () => {
      const [first, second] = harness.world.tags;
      const created = await create({ text: "string tags", tags: [String(first)] });
      assert.equal(created.status, 201);
      assert.deepEqual(
        created.body.data.tags.map((t: any) => t.id),
        [first],
      );
      const patched = await call("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, { tags: [second, String(first)] });
      assert.equal(patched.status, 200);
      assert.deepEqual(patched.body.data.tags.map((t: any) => t.id).sort(), [first, second].sort());
    });

    test("created_at and updated_at of a new post come from one clock reading", async () => {
      const created = await create({ text: "one clock", scheduled_for: new Date(Date.now() + 3_600_000).toISOString() });
      assert.equal(created.status, 201);
      assert.equal(created.body.data.updated_at, created.body.data.created_at);
      const read = await call("GET", `/v1/scheduled-posts/${created.body.data.id}`);
      assert.equal(read.body.data.updated_at, read.body.data.created_at);
    });

    test("PATCH changes only the fields sent; parts replace media; null and [] clear", async () => {
      const image = await uploadMedia(harness, index, harness.world.keys.write, PNG_1X1, "image/png");
      const tag = harness.world.tags[0];
      const created = await create({ parts: [{ text: "one", media: [{ object_key: image }] }, { text: "two" }], title: "T", scratchpad: "S", tags: [tag] });
      const id = created.body.data.id;
      const retitled = await call("PATCH", `/v1/scheduled-posts/${id}`, { title: "T2" });
      assert.equal(retitled.status, 200);
      assert.equal(retitled.body.data.title, "T2");
      assert.equal(retitled.body.data.scratchpad, "S");
      assert.deepEqual(retitled.body.data.parts, created.body.data.parts);
      assert.deepEqual(
        retitled.body.data.tags.map((t: any) => t.id),
        [tag],
      );
      // A part sent with media and no text loses its text (spec: Scheduling).
      const replaced = await call("PATCH", `/v1/scheduled-posts/${id}`, { parts: [{ media: [{ object_key: image }] }] });
      assert.deepEqual(replaced.body.data.parts, [{ text: "", media: [{ object_key: image, alt_text: null }] }]);
      const cleared = await call("PATCH", `/v1/scheduled-posts/${id}`, { title: null, scratchpad: null, tags: [] });
      assert.equal(cleared.body.data.title, null);
      assert.equal(cleared.body.data.scratchpad, null);
      assert.deepEqual(cleared.body.data.tags, []);
      const media = await call("PATCH", `/v1/scheduled-posts/${id}`, { media: [] });
      assert.equal(media.status, 400);
      assert.equal(media.body.error.code, "invalid_parameter");
    });

    test("a scheduled_for alone never promotes a draft; status moves it with the quota deducted and refunded exactly", async () => {
      const id = (await create({ text: unique("promote") })).body.data.id;
      const when = inOneDay();
      const timed = await call("PATCH", `/v1/scheduled-posts/${id}`, { scheduled_for: when });
      assert.equal(timed.body.data.status, "draft");
      assert.equal(await quotaBalance(id), 0);
      const promoted = await call("PATCH", `/v1/scheduled-posts/${id}`, { status: "scheduled" });
      assert.equal(promoted.status, 200);
      assert.equal(promoted.body.data.status, "scheduled");
      assert.equal(promoted.body.data.scheduled_for, when);
      assert.equal(await quotaBalance(id), 1);
      const again = await call("PATCH", `/v1/scheduled-posts/${id}`, { status: "scheduled", scheduled_for: hoursAhead(30) });
      assert.equal(again.body.data.status, "scheduled");
      assert.equal(await quotaBalance(id), 1);
      const demoted = await call("PATCH", `/v1/scheduled-posts/${id}`, { status: "draft" });
      assert.equal(demoted.body.data.status, "draft");
      assert.equal(await quotaBalance(id), 0);
      const [ledger] = await harness.services.sql<
        { entries: number }[]
      >`select count(*)::int as entries from post_quota_ledger where subject = ${`post:${id}`}`;
      assert.equal(ledger.entries, 2);
    });

    test("status scheduled without a future time answers 400 invalid_parameter", async () => {
      const id = (await create({ text: unique("no time") })).body.data.id;
      const answer = await call("PATCH", `/v1/scheduled-posts/${id}`, { status: "scheduled" });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "invalid_parameter");
      const past = await call("PATCH", `/v1/scheduled-posts/${id}`, { status: "scheduled", scheduled_for: new Date(Date.now() - 60_000).toISOString() });
      assert.equal(past.status, 400);
      assert.equal(past.body.error.code, "invalid_parameter");
      assert.equal(await quotaBalance(id), 0);
    });

    test("deleting a queued post refunds its quota unit; the id then answers 404 not_found", async () => {
      const id = (await create({ text: unique("delete me"), scheduled_for: inOneDay() })).body.data.id;
      assert.equal(await quotaBalance(id), 1);
      const deleted = await call("DELETE", `/v1/scheduled-posts/${id}`);
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body.data, { id, deleted: true });
      assert.equal(await quotaBalance(id), 0);
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { title: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const gone = await call(method, `/v1/scheduled-posts/${id}`, body);
        assert.equal(gone.status, 404, method);
        assert.equal(gone.body.error.code, "not_found", method);
      }
      const malformed = await call("GET", "/v1/scheduled-posts/not-a-number");
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.code, "invalid_parameter");
    });

    test("another user's post reads as missing; a shared account's posts refuse writes", async () => {
      const theirs = (await create({ text: unique("theirs") }, harness.world.keys.other_user)).body.data.id;
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { title: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const answer = await call(method, `/v1/scheduled-posts/${theirs}`, body);
        assert.equal(answer.status, 404, method);
        assert.equal(answer.body.error.code, "not_found", method);
      }
      const shared = await create({ text: "x", account_id: harness.world.accounts.shared });
      assert.equal(shared.status, 403);
      assert.equal(shared.body.error.code, "writes_main_account_only");
      const foreignAccount = await call("GET", `/v1/scheduled-posts?account_id=${harness.world.accounts.other_user}`);
      assert.equal(foreignAccount.status, 404);
      assert.equal(foreignAccount.body.error.code, "account_not_found");
      const readKey = await create({ text: "x" }, harness.world.keys.read);
      assert.equal(readKey.status, 403);
      assert.equal(readKey.body.error.code, "insufficient_scope");
    });

    test("a user who has not finished onboarding answers 403 onboarding_required", async () => {
      const answer = await create({ text: "x", scheduled_for: inOneDay() }, harness.world.keys.not_onboarded);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error.code, "onboarding_required");
    });

    test("a used-up post quota answers 403 post_quota_exceeded; drafts still save", async () => {
      const answer = await create({ text: unique("over quota"), scheduled_for: inOneDay() }, harness.world.keys.no_post_quota);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error.code, "post_quota_exceeded");
      const draft = await create({ text: unique("a draft") }, harness.world.keys.no_post_quota);
      assert.equal(draft.status, 201);
      const promote = await call(
        "PATCH",
        `/v1/scheduled-posts/${draft.body.data.id}`,
        { status: "scheduled", scheduled_for: inOneDay() },
        harness.world.keys.no_post_quota,
      );
      assert.equal(promote.status, 403);
      assert.equal(promote.body.error.code, "post_quota_exceeded");
      const unchanged = await call("GET", `/v1/scheduled-posts/${draft.body.data.id}`, undefined, harness.world.keys.no_post_quota);
      assert.equal(unchanged.body.data.status, "draft");
    });

    test("publishing now needs an Idempotency-Key, refuses draft fields, and a retry replays the sent post once", async () => {
      const text = unique("out now");
      const keyless = await create({ text, scheduled_for: "now" });
      assert.equal(keyless.status, 400);
      assert.equal(keyless.body.error.code, "invalid_parameter");
      const titled = await create({ text, scheduled_for: "now", title: "no" }, undefined, { "Idempotency-Key": unique("k").replace(/ /g, "-") });
      assert.equal(titled.status, 400);
      assert.equal(titled.body.error.code, "invalid_parameter");
      const key = unique("now").replace(/ /g, "-");
      const sent = await create({ text, scheduled_for: "now" }, undefined, { "Idempotency-Key": key });
      assert.equal(sent.status, 201);
      assert.equal(sent.body.data.status, "sent");
      assert.match(sent.body.data.x_post_id, /^\d+$/);
      assert.match(sent.body.data.url, /^https:\/\/x\.com\/ada_builds\/status\/\d+$/);
      assert.ok(sent.body.data.posted_at);
      const again = await create({ text, scheduled_for: "now" }, undefined, { "Idempotency-Key": key });
      assert.equal(again.headers.get("idempotency-replayed"), "true");
      assert.deepEqual(again.body, sent.body);
      const onNetwork = await harness.services.network.postById(sent.body.data.x_post_id);
      assert.equal(onNetwork.text, text);
      const [count] = await harness.services.sql<{ n: number }[]>`select count(*)::int as n from scheduled_posts where parts->0->>'text' = ${text}`;
      assert.equal(count.n, 1);
      const edit = await call("PATCH", `/v1/scheduled-posts/${sent.body.data.id}`, { title: "late" });
      assert.equal(edit.status, 400);
      assert.equal(edit.body.error.code, "invalid_request");
    });

    test("a retried create with the same Idempotency-Key creates one post", async () => {
      const key = unique("create").replace(/ /g, "-");
      const body = { text: unique("once"), scheduled_for: inOneDay() };
      const first = await create(body, undefined, { "Idempotency-Key": key });
      const second = await create(body, undefined, { "Idempotency-Key": key });
      assert.equal(first.status, 201);
      assert.equal(second.headers.get("idempotency-replayed"), "true");
      assert.equal(second.body.data.id, first.body.data.id);
      const reuse = await create({ ...body, text: "other" }, undefined, { "Idempotency-Key": key });
      assert.equal(reuse.status, 409);
      assert.equal(reuse.body.error.code, "idempotency_key_reuse");
    });
  });
});

test("the demo world has a post in each state and an attachable, unattached PNG", async () => {
  const [transport] = transports(harness);
  const { scheduled_posts: posts, media } = harness.world;
  for (const status of ["draft", "scheduled", "sent"] as const) {
    const answer = await transport.request("GET", `/v1/scheduled-posts/${posts[status]}`, { key: harness.world.keys.write });
    assert.equal(answer.body.data.status, status);
  }
  const sent = await transport.request("GET", `/v1/scheduled-posts/${posts.sent}`, { key: harness.world.keys.write });
  assert.match(sent.body.data.x_post_id, /^\d+$/);
  assert.match(media.image_key ?? "", /\.png$/);
  const [row] = await harness.services.sql<{ attached_at: Date | null; uploaded_at: Date | null }[]>`
    select attached_at, uploaded_at from media_uploads where object_key = ${media.image_key!}`;
  assert.equal(row.attached_at, null);
  assert.ok(row.uploaded_at);
  const me = await transport.request("GET", "/v1/me", { key: harness.world.keys.no_post_quota });
  assert.equal(me.body.data.post_quota.remaining, 0);
  assert.equal(me.body.data.post_quota.used, me.body.data.post_quota.limit);
});

describe("listing scheduled posts", () => {
  const call = (path: string, key = harness.world.keys.write) => transports(harness)[1].request("GET", path, { key });
  const write = (method: string, path: string, body: unknown) => transports(harness)[0].request(method, path, { key: harness.world.keys.write, body });

  test("status filters by a comma list; unknown statuses answer 400 invalid_parameter", async () => {
    const list = await call("/v1/scheduled-posts?status=draft,scheduled&limit=100");
    assert.equal(list.status, 200);
    assert.ok(list.body.data.length > 0);
    assert.ok(list.body.data.every((post: any) => ["draft", "scheduled"].includes(post.status)));
    const bad = await call("/v1/scheduled-posts?status=draft,queued");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "invalid_parameter");
    assert.match(bad.body.error.message, /queued/);
  });

  test("the default order is most recently updated first, paged with has_more", async () => {
    const first = await call("/v1/scheduled-posts?limit=3");
    const times = first.body.data.map((post: any) => post.updated_at);
    assert.deepEqual(times, [...times].sort().reverse());
    assert.equal(first.body.pagination.has_more, true);
    const second = await call("/v1/scheduled-posts?limit=3&page=2");
    assert.equal(second.body.data.filter((post: any) => first.body.data.some((seen: any) => seen.id === post.id)).length, 0);
  });

  test("from/to are inclusive bounds on the scheduled time, oldest first, drafts left out", async () => {
    const base = Date.now() + 40 * 86_400_000;
    const times = [0, 1, 2].map((i) => new Date(base + i * 3_600_000).toISOString());
    const ids: string[] = [];
    for (const time of [times[2], times[0], times[1]]) {
      ids.push((await write("POST", "/v1/scheduled-posts", { text: `window ${time}`, scheduled_for: time })).body.data.id);
    }
    const draft = (await write("POST", "/v1/scheduled-posts", { text: "windowed draft" })).body.data.id;
    await write("PATCH", `/v1/scheduled-posts/${draft}`, { scheduled_for: times[1] });
    const list = await call(`/v1/scheduled-posts?from=${times[0]}&to=${encodeURIComponent(times[2])}`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((post: any) => post.scheduled_for),
      times,
    );
    assert.ok(!list.body.data.some((post: any) => post.id === draft));
    const narrowed = await call(`/v1/scheduled-posts?from=${times[1]}&to=${times[1]}`);
    assert.deepEqual(
      narrowed.body.data.map((post: any) => post.scheduled_for),
      [times[1]],
    );
    const naive = await call("/v1/scheduled-posts?from=2030-01-01T00:00:00");
    assert.equal(naive.status, 400);
    assert.equal(naive.body.error.code, "invalid_parameter");
  });

  test("legacy board drafts read as draft and are listed under status=draft", async () => {
    const [row] = await harness.services.sql<{ id: number }[]>`
      insert into scheduled_posts (account_id, status, legacy_board, parts)
      values (${harness.world.accounts.main}, 'draft', true, ${harness.services.sql.json([{ text: "from the old board", media: [] }])})
      returning id`;
    const read = await call(`/v1/scheduled-posts/${row.id}`);
    assert.equal(read.body.data.status, "draft");
    const drafts = await call("/v1/scheduled-posts?status=draft&limit=100");
    assert.ok(drafts.body.data.some((post: any) => post.id === String(row.id)));
  });

  test("next_slot queues a post on the account's next free queue slot", async () => {
    const first = await write("POST", "/v1/scheduled-posts", { text: "slot one", scheduled_for: "next_slot" });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.data.status, "scheduled");
    const settings = await call("/v1/queue-settings");
    const slotTimes = settings.body.data.slots.map((slot: any) => slot.time);
    const at = new Date(first.body.data.scheduled_for);
    assert.ok(at.getTime() >= Date.now() + 59_000);
    assert.ok(slotTimes.includes(at.toISOString().slice(11, 16)), `${at.toISOString()} is on a slot of ${slotTimes.join(",")} (UTC)`);
    const second = await write("POST", "/v1/scheduled-posts", { text: "slot two", scheduled_for: "next_slot" });
    assert.ok(new Date(second.body.data.scheduled_for) > at, "the second post takes the next free slot");
  });

  test("tags filter any-of; deleting a tag detaches it from every post", async () => {
    const [red, blue] = await Promise.all(
      ["red", "blue"].map(async (name) => (await write("POST", "/v1/tags", { name: `${name}-${Math.random().toString(36).slice(2, 7)}` })).body.data.id),
    );
    const a = (await write("POST", "/v1/scheduled-posts", { text: "tagged a", tags: [red] })).body.data.id;
    const b = (await write("POST", "/v1/scheduled-posts", { text: "tagged b", tags: [blue, red] })).body.data.id;
    await write("POST", "/v1/scheduled-posts", { text: "untagged" });
    const both = await call(`/v1/scheduled-posts?tags=${red},${blue}`);
    assert.deepEqual(both.body.data.map((post: any) => post.id).sort(), [a, b].sort());
    const onlyBlue = await call(`/v1/scheduled-posts?tags=${blue}`);
    assert.deepEqual(
      onlyBlue.body.data.map((post: any) => post.id),
      [b],
    );
    assert.equal((await write("DELETE", `/v1/tags/${red}`, undefined)).status, 200);
    const after = await call(`/v1/scheduled-posts/${b}`);
    assert.deepEqual(
      after.body.data.tags.map((tag: any) => tag.id),
      [blue],
    );
    assert.equal((await call(`/v1/scheduled-posts?tags=${red}`)).body.data.length, 0);
    const bad = await call("/v1/scheduled-posts?tags=red");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "invalid_parameter");
  });
});

describe("when the scheduling service is unreachable", () => {
  let failing: Harness;
  before(async () => {
    failing = await startHarness({ config: { faults: "scheduler" } });
  });
  after(() => failing.close());

  test("every scheduled-posts endpoint answers 503 upstream_unavailable and writes nothing", async () => {
    for (const transport of transports(failing)) {
      const key = failing.world.keys.write;
      for (const [method, path, body] of [
        ["GET", "/v1/scheduled-posts", undefined],
        ["POST", "/v1/scheduled-posts", { text: "never", scheduled_for: inOneDay() }],
        ["GET", "/v1/scheduled-posts/1", undefined],
        ["PATCH", "/v1/scheduled-posts/1", { title: "x" }],
        ["DELETE", "/v1/scheduled-posts/1", undefined],
      ] as const) {
        const answer = await transport.request(method, path, { key, body });
        assert.equal(answer.status, 503, `${transport.name} ${method} ${path}`);
        assert.equal(answer.body.error.code, "upstream_unavailable");
      }
    }
    const [row] = await failing.services.sql<{ n: number }[]>`select count(*)::int as n from scheduled_posts where parts->0->>'text' = 'never'`;
    assert.equal(row.n, 0);
  });
});
