/**
 * `GET /v1/events` (docs/webhooks.md): the JSON list with cursor paging (both transports),
 * and the Server-Sent Events stream through the real listening server: live events,
 * resuming after `Last-Event-ID` without gaps or repeats after a disconnect, heartbeats,
 * the `types` filter, its errors, and the stream ending cleanly when the server stops.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { startHarness, transports, type Harness, type Transport } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { openSse } from "./support/sse_reader.ts";

let harness: Harness;
before(async () => {
  // Short timing so heartbeats are seen in a test (the default is a poll a second, a heartbeat after 15 s).
  harness = await startHarness({ config: { eventStreamTiming: { pollMs: 50, heartbeatMs: 400 } } });
});
after(() => harness.close());

const key = () => harness.world.keys.write;
const url = (query = "") => `${harness.baseUrl}/v1/events${query}`;
const auth = () => ({ Authorization: `Bearer ${key()}`, "X-Forwarded-For": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

/** Creates a scheduled post (one `post.scheduled` event); answers its id. */
async function schedulePost(transport: Transport = transports(harness)[0]): Promise<string> {
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const answer = await transport.request("POST", "/v1/scheduled-posts", {
    key: key(),
    body: { text: `Stream ${randomBytes(5).toString("hex")}`, scheduled_for: at },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data.id;
}

/** The newest event id of the key's user right now (the JSON form polled to its end). */
async function latestCursor(transport: Transport): Promise<string> {
  let cursor: string | null = null;
  for (;;) {
    const answer = await transport.request("GET", `/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { key: key() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    cursor = answer.body.pagination.next_cursor;
    if (!answer.body.pagination.has_more) return cursor ?? "evt_0";
  }
}

describeMatrix(({ index, name }) => {
  describe(`GET /v1/events as JSON (${name})`, () => {
    const transport = () => transports(harness)[index];

    test("pages by cursor without gaps or repeats; next_cursor stays set for polling", async () => {
      const start = await latestCursor(transport());
      const ids = [await schedulePost(), await schedulePost(), await schedulePost(), await schedulePost(), await schedulePost()];
      const seen: any[] = [];
      let cursor = start;
      for (let page = 0; page < 10; page++) {
        const answer = await transport().request("GET", `/v1/events?types=post.scheduled&limit=2&cursor=${cursor}`, { key: key() });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.ok(answer.body.data.length <= 2);
        seen.push(...answer.body.data);
        cursor = answer.body.pagination.next_cursor;
        if (!answer.body.pagination.has_more) break;
      }
      assert.deepEqual(
        seen.map((event) => event.object.id),
        ids,
      );
      const numbers = seen.map((event) => Number(event.id.slice(4)));
      assert.deepEqual(
        numbers,
        [...numbers].sort((a, b) => a - b),
        "ids increase",
      );
      assert.equal(cursor, seen.at(-1).id, "the last page's next_cursor is the last event");
      const empty = await transport().request("GET", `/v1/events?cursor=${cursor}`, { key: key() });
      assert.deepEqual(empty.body.data, []);
      assert.deepEqual(empty.body.pagination, { limit: 50, has_more: false, next_cursor: cursor });
    });

    test("types, since and account_id narrow the list; another user's events are not visible", async () => {
      const id = await schedulePost();
      const all = await transport().request("GET", `/v1/events?types=post.scheduled&since=${new Date(Date.now() - 60_000).toISOString()}&limit=100`, {
        key: key(),
      });
      assert.ok(all.body.data.some((event: any) => event.object.id === id));
      assert.ok(all.body.data.every((event: any) => event.type === "post.scheduled"));
      const future = await transport().request("GET", `/v1/events?since=${new Date(Date.now() + 60_000).toISOString()}`, { key: key() });
      assert.deepEqual(future.body.data, []);
      const linked = await transport().request("GET", `/v1/events?account_id=${harness.world.accounts.linked}&types=post.scheduled&limit=100`, { key: key() });
      assert.equal(linked.status, 200);
      assert.ok(linked.body.data.every((event: any) => event.account_id === harness.world.accounts.linked));
      const theirs = await transport().request("GET", "/v1/events?limit=100", { key: harness.world.keys.other_user });
      assert.equal(theirs.status, 200);
      assert.ok(!theirs.body.data.some((event: any) => event.object.id === id), "another user never sees the event");
    });

    test("bad input answers 400 invalid_parameter; another user's account 404 account_not_found", async () => {
      expectError(await transport().request("GET", "/v1/events?types=post.exploded", { key: key() }), 400, "invalid_parameter");
      expectError(await transport().request("GET", "/v1/events?cursor=yesterday", { key: key() }), 400, "invalid_parameter");
      expectError(await transport().request("GET", "/v1/events?limit=101", { key: key() }), 400, "invalid_parameter");
      expectError(await transport().request("GET", "/v1/events?since=2026-01-01", { key: key() }), 400, "invalid_parameter");
      expectError(await transport().request("GET", `/v1/events?account_id=${harness.world.accounts.other_user}`, { key: key() }), 404, "account_not_found");
      expectError(await transport().request("GET", "/v1/events", {}), 401, "unauthorized");
    });
  });
});

describe("GET /v1/events as Server-Sent Events (the listening server)", () => {
  test("streams events as they happen, with heartbeats when idle", async () => {
    const stream = await openSse(url(), auth());
    try {
      assert.equal(stream.status, 200);
      assert.equal(stream.headers.get("content-type"), "text/event-stream");
      assert.ok(stream.headers.get("x-ratelimit-remaining"), "a stream is a read, with rate-limit headers");
      const id = await schedulePost();
      const event = await stream.nextEvent(5000);
      assert.equal(event.event, "post.scheduled");
      assert.equal(event.data.object.id, id);
      assert.equal(event.id, event.data.id, "the SSE id is the event id");
      // Idle: a heartbeat comment within the (shortened) heartbeat interval.
      const deadline = Date.now() + 3000;
      let heartbeat = false;
      while (!heartbeat && Date.now() < deadline) {
        const message = await stream.next(deadline - Date.now());
        if (message?.kind === "comment" && message.text === "heartbeat") heartbeat = true;
        else assert.notEqual(message?.kind, "event", "no other event arrives");
      }
      assert.ok(heartbeat, "a heartbeat arrived");
    } finally {
      stream.close();
    }
  });

  test("resumes after Last-Event-ID without gaps or repeats after a disconnect", async () => {
    const transport = transports(harness)[1];
    const start = await latestCursor(transport);
    const first = [await schedulePost(), await schedulePost(), await schedulePost()];
    const stream = await openSse(url(`?last_event_id=${start}&types=post.scheduled`), auth());
    const received: { id?: string; data: any }[] = [];
    received.push(await stream.nextEvent(5000), await stream.nextEvent(5000));
    stream.close();
    // While disconnected, more changes happen.
    const later = [await schedulePost(), await schedulePost()];
    const resumed = await openSse(url("?types=post.scheduled"), { ...auth(), "Last-Event-ID": received.at(-1)!.id! });
    try {
      for (let i = 0; i < 3; i++) received.push(await resumed.nextEvent(5000));
      assert.deepEqual(
        received.map((event) => event.data.object.id),
        [...first, ...later],
        "every event once, in order",
      );
      const listed = await transport.request("GET", `/v1/events?types=post.scheduled&cursor=${start}&limit=100`, { key: key() });
      assert.deepEqual(
        received.map((event) => event.id),
        listed.body.data.map((event: any) => event.id),
        "the stream and the list agree",
      );
      const extra = await resumed.next(300);
      assert.notEqual(extra?.kind, "event", "nothing repeated");
    } finally {
      resumed.close();
    }
  });

  test("the types filter leaves other events out", async () => {
    const stream = await openSse(url("?types=post.deleted"), auth());
    try {
      const id = await schedulePost();
      const deleted = await transports(harness)[0].request("DELETE", `/v1/scheduled-posts/${id}`, { key: key() });
      assert.equal(deleted.status, 200);
      const event = await stream.nextEvent(5000);
      assert.equal(event.event, "post.deleted");
      assert.equal(event.data.object.id, id);
    } finally {
      stream.close();
    }
  });

  test("a bad Last-Event-ID answers 400 invalid_parameter; no key answers 401", async () => {
    const bad = await fetch(url(), { headers: { Accept: "text/event-stream", ...auth(), "Last-Event-ID": "yesterday" } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.code, "invalid_parameter");
    const anonymous = await fetch(url(), { headers: { Accept: "text/event-stream" } });
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error.code, "unauthorized");
  });

  describe("a stream's key and lifetime", () => {
    let own: Harness;
    let userId: number;
    before(async () => {
      // Checks the key every 100 ms (default 30 s); a connection lives 1.5 s (default an hour).
      own = await startHarness({ config: { eventStreamTiming: { pollMs: 50, heartbeatMs: 60_000, keyCheckMs: 100, lifetimeMs: 1500 } } });
      const users = await own.threadline.admin.listUsers();
      userId = users.find((user) => user.main_account_id === own.world.accounts.main)!.user_id;
    });
    after(() => own.close());

    /** Opens a stream with a new key and answers its comments until it ends (at most 10 s). */
    async function streamUntilEnd(change: (keyId: number) => Promise<unknown>): Promise<string[]> {
      const issued = await own.threadline.admin.createKey({ userId, name: "stream", scopes: ["read"] });
      const stream = await openSse(`${own.baseUrl}/v1/events`, { Authorization: `Bearer ${issued.key}` });
      assert.equal(stream.status, 200);
      const comments: string[] = [];
      const first = await stream.next(5000);
      assert.equal(first?.kind === "comment" && first.text, "stream open");
      await change(issued.record.id);
      const deadline = Date.now() + 10_000;
      while (!stream.ended() && Date.now() < deadline) {
        const message = await stream.next(deadline - Date.now());
        if (message?.kind === "comment") comments.push(message.text);
      }
      assert.ok(stream.ended(), "the server ended the stream");
      return comments;
    }

    test("revoking the key ends its open stream, the last line saying why", async () => {
      const comments = await streamUntilEnd((keyId) => own.threadline.admin.revokeKey(keyId));
      assert.equal(comments.at(-1), "closed: the API key was revoked");
    });

    test("rotating the key away ends its open stream, naming the replacement", async () => {
      const comments = await streamUntilEnd((keyId) => own.threadline.admin.rotateKey(keyId));
      assert.equal(comments.at(-1), "closed: the API key was rotated; reconnect with its replacement");
    });

    test("a stream ends after its lifetime, telling the client to reconnect with Last-Event-ID", async () => {
      const started = Date.now();
      const comments = await streamUntilEnd(async () => {});
      assert.equal(comments.at(-1), "closed: a stream lasts 1.5 s at most; reconnect with Last-Event-ID");
      assert.ok(Date.now() - started >= 1500, "not before its lifetime");
    });
  });

  describe("one listener per process, and a cap on open streams", () => {
    let own: Harness;
    let userId: number;
    before(async () => {
      // No poll for a minute: only the event bell (a commit's notification) can bring an event
      // within the test; a key holds 2 streams and a user 3 (defaults 10 and 25).
      own = await startHarness({
        config: { eventStreamTiming: { pollMs: 60_000, heartbeatMs: 60_000 }, eventStreamLimits: { perKey: 2, perUser: 3 } },
      });
      const users = await own.threadline.admin.listUsers();
      userId = users.find((user) => user.main_account_id === own.world.accounts.main)!.user_id;
    });
    after(() => own.close());

    const openOn = (key: string) => openSse(`${own.baseUrl}/v1/events`, { Authorization: `Bearer ${key}` });
    const streamCount = async () => {
      const [row] = await own.services.sql<{ n: number }[]>`select count(*)::int as n from event_streams where owner_id = ${userId}`;
      return row.n;
    };

    test("a committed event reaches every open stream of its owner at once, with no poll", async () => {
      const key = (await own.threadline.admin.createKey({ userId, name: "bell", scopes: ["read", "write"] })).key;
      const streams = [await openOn(key), await openOn(key)];
      try {
        for (const stream of streams) assert.equal((await stream.next(5000))?.kind, "comment", "the stream opened");
        const started = Date.now();
        const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
        const created = await fetch(`${own.baseUrl}/v1/scheduled-posts`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ text: `Bell ${randomBytes(5).toString("hex")}`, scheduled_for: at }),
        });
        assert.equal(created.status, 201);
        const id = (await created.json()).data.id;
        for (const stream of streams) {
          const event = await stream.nextEvent(10_000);
          assert.equal(event.data.object.id, id);
        }
        assert.ok(Date.now() - started < 10_000, "delivered by the notification, not the minute's poll");
      } finally {
        for (const stream of streams) stream.close();
      }
    });

    test("a key holds 2 streams and a user 3: past either, 429 stream_limit_reached with the limit; a closed stream frees its slot", async () => {
      const first = (await own.threadline.admin.createKey({ userId, name: "cap-1", scopes: ["read"] })).key;
      const second = (await own.threadline.admin.createKey({ userId, name: "cap-2", scopes: ["read"] })).key;
      const open = [await openOn(first), await openOn(first)];
      try {
        for (const stream of open) assert.equal(stream.status, 200);
        const refusedKey = await fetch(`${own.baseUrl}/v1/events`, { headers: { Accept: "text/event-stream", Authorization: `Bearer ${first}` } });
        const keyBody = await refusedKey.json();
        assert.equal(refusedKey.status, 429);
        assert.equal(keyBody.error.code, "stream_limit_reached");
        assert.equal(keyBody.error.limit, 2);
        assert.equal(keyBody.error.scope, "key");
        // The JSON form is not a stream: it is never capped.
        assert.equal((await fetch(`${own.baseUrl}/v1/events`, { headers: { Authorization: `Bearer ${first}` } })).status, 200);
        open.push(await openOn(second));
        assert.equal(open[2].status, 200, "another key of the user has room until the user's 3");
        const refusedUser = await fetch(`${own.baseUrl}/v1/events`, { headers: { Accept: "text/event-stream", Authorization: `Bearer ${second}` } });
        const userBody = await refusedUser.json();
        assert.equal(refusedUser.status, 429);
        assert.equal(userBody.error.code, "stream_limit_reached");
        assert.equal(userBody.error.limit, 3);
        assert.equal(userBody.error.scope, "user");
        // Another user is not affected.
        const theirs = await openOn(own.world.keys.other_user);
        assert.equal(theirs.status, 200);
        theirs.close();
        // A client that leaves frees its slot (the server sees the disconnect).
        open.shift()!.close();
        const deadline = Date.now() + 10_000;
        while ((await streamCount()) > 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(await streamCount(), 2, "the closed stream let go of its slot");
        open.push(await openOn(second));
        assert.equal(open.at(-1)!.status, 200, "a slot freed by a closed stream is taken again");
      } finally {
        for (const stream of open) stream.close();
      }
    });

    test("a slot left by a process that died stops counting when it expires", async () => {
      const key = await own.threadline.admin.createKey({ userId: await otherUserId(), name: "expired", scopes: ["read"] });
      const sql = own.services.sql;
      // Three rows of a vanished process on this key: two expired, one still running.
      await sql`insert into event_streams (owner_id, key_id, expires_at)
        values (${key.record.user_id}, ${key.record.id}, now() - interval '1 second'), (${key.record.user_id}, ${key.record.id}, now() - interval '1 second'),
               (${key.record.user_id}, ${key.record.id}, now() + interval '1 minute')`;
      const stream = await openOn(key.key);
      try {
        assert.equal(stream.status, 200, "the expired rows no longer count");
        const refused = await fetch(`${own.baseUrl}/v1/events`, { headers: { Accept: "text/event-stream", Authorization: `Bearer ${key.key}` } });
        assert.equal(refused.status, 429, "the running row and the new stream fill the key's 2");
        assert.equal((await refused.json()).error.code, "stream_limit_reached");
      } finally {
        stream.close();
      }
    });

    /** The demo world's other user (their streams are counted apart from the main user's). */
    async function otherUserId(): Promise<number> {
      const users = await own.threadline.admin.listUsers();
      return users.find((user) => user.main_account_id === own.world.accounts.other_user)!.user_id;
    }
  });

  test("the stream ends cleanly when the instance closes (in process)", async () => {
    const own = await startHarness({ config: { eventStreamTiming: { pollMs: 50, heartbeatMs: 60_000 } } });
    let closed = false;
    try {
      const stream = await openSse("http://in-process.test/v1/events", { Authorization: `Bearer ${own.world.keys.write}` }, (request) =>
        own.threadline.fetch(request),
      );
      assert.equal(stream.status, 200);
      assert.equal((await stream.next(2000))?.kind, "comment", "the stream opened");
      const closing = own.close().then(() => (closed = true));
      const deadline = Date.now() + 10_000;
      while (!stream.ended() && Date.now() < deadline) await stream.next(deadline - Date.now());
      assert.ok(stream.ended(), "the server ended the stream");
      await closing;
    } finally {
      if (!closed) await own.close();
    }
  });
});
