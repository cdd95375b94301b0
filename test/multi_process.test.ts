/**
 * Several server processes on one PostgreSQL and Redis (issue "Platform II", scope 5):
 * real `threadline serve` processes share the request buckets, run each periodic job
 * once, honour one Idempotency-Key between them, and share the event streams' cap while each
 * wakes its own streams from the other's commits.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { periodicJobs } from "../jobs/task_list.ts";
import { childEnv, pollUntil, startNode, type RunningNode } from "./support/child_node.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { openSse } from "./support/sse_reader.ts";

const ready = process.env.DATABASE_URL && process.env.REDIS_URL;

describe("two server processes on one database and Redis", {
  skip: ready ? false : "needs DATABASE_URL and REDIS_URL: embedded storage belongs to one process",
}, () => {
  let database: TestDatabase;
  let dir: string;
  const servers: { node: RunningNode; url: string }[] = [];
  let world: any;

  const serve = async (demoFile?: string) => {
    // Two streams per key, so the cap across processes is seen with few streams.
    const env = childEnv({ DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: prefix, EVENT_STREAMS_PER_KEY: "2" }, []);
    const args = ["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", "0", ...(demoFile ? ["--demo-file", demoFile] : [])];
    const node = startNode(args, { env });
    const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(node.stdout)?.[1], {
      abort: () => (node.child.exitCode !== null ? `it exited: ${node.stderr}` : undefined),
    });
    servers.push({ node, url });
    return url;
  };
  let prefix = "";

  before(async () => {
    database = await createTestDatabase("postgres");
    dir = await mkdtemp(join(tmpdir(), "tl-mp-"));
    prefix = `tl:mp:${randomBytes(4).toString("hex")}:`;
    const demoFile = join(dir, "demo.json");
    await serve(demoFile);
    world = JSON.parse(await readFile(demoFile, "utf8"));
    await serve();
  });

  after(async () => {
    for (const { node } of servers) await node.stop();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the request bucket of an account is shared: 30 reads a minute in all", async () => {
    // Align to a fresh clock minute so the whole burst falls in one window.
    const secondsIntoMinute = new Date().getUTCSeconds();
    if (secondsIntoMinute > 45) await new Promise((resolve) => setTimeout(resolve, (61 - secondsIntoMinute) * 1000));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => fetch(`${servers[i % 2].url}/v1/me`, { headers: { Authorization: `Bearer ${world.keys.throttled}` } })),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 200).length, 30, statuses.join(","));
    assert.equal(statuses.filter((status) => status === 429).length, 10);
  });

  test("one Idempotency-Key runs once across processes", async () => {
    const name = `mp-${randomBytes(3).toString("hex")}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${servers[i % 2].url}/v1/tags`, {
          method: "POST",
          headers: { Authorization: `Bearer ${world.keys.write}`, "Idempotency-Key": name, "Content-Type": "application/json" },
          body: JSON.stringify({ name }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.ok(
      statuses.every((status) => status === 201 || status === 409),
      statuses.join(","),
    );
    const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from tags where name = ${name}`;
      assert.equal(count, 1);
    } finally {
      await sql.end();
    }
  });

  test("an event committed through one process reaches a stream on the other; a key's streams are capped across both", async () => {
    const auth = { Authorization: `Bearer ${world.keys.write}` };
    const streams = [await openSse(`${servers[0].url}/v1/events`, auth), await openSse(`${servers[1].url}/v1/events`, auth)];
    try {
      for (const stream of streams) assert.equal(stream.status, 200);
      for (const server of servers) {
        const refused = await fetch(`${server.url}/v1/events`, { headers: { ...auth, Accept: "text/event-stream" } });
        assert.equal(refused.status, 429, "the key's 2 streams are open on the two processes together");
        assert.equal((await refused.json()).error.code, "stream_limit_reached");
      }
      const created = await fetch(`${servers[1].url}/v1/scheduled-posts`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ text: `Across ${randomBytes(4).toString("hex")}`, scheduled_for: new Date(Date.now() + 2 * 86_400_000).toISOString() }),
      });
      assert.equal(created.status, 201);
      const id = (await created.json()).data.id;
      for (const stream of streams) {
        let event = await stream.nextEvent(15_000);
        // The demo world's own events may come first; the created post's arrives.
        while (event.data.object.id !== id) event = await stream.nextEvent(15_000);
        assert.equal(event.event, "post.scheduled");
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test("each periodic job is enqueued once per slot and run exactly once", async () => {
    const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      const rows = await pollUntil(
        "both processes' periodic jobs to finish",
        async () => {
          // Periodic runs only: the demo world's queued posts and articles have publish jobs due later.
          const kinds = periodicJobs.map((job) => job.kind);
          const jobs = await sql<{ unique_key: string; status: string; attempts: number }[]>`
          select unique_key, status, attempts from jobs where unique_key is not null and kind in ${sql(kinds)}`;
          return jobs.length >= 3 && jobs.every((job) => job.status === "done") ? jobs : undefined;
        },
        { timeoutMs: 30_000 },
      );
      const keys = rows.map((row) => row.unique_key);
      assert.equal(new Set(keys).size, keys.length, "no slot was enqueued twice");
      for (const row of rows) assert.equal(row.attempts, 1, row.unique_key);
    } finally {
      await sql.end();
    }
  });
});
