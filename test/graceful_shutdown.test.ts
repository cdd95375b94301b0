/**
 * Graceful shutdown of a real `threadline serve` (docs/operations.md): SIGTERM while a publish job is
 * mid-run loses and doubles nothing. The test holds a lock on the simulated network's
 * `network_posts`, so the publisher is stuck inside its network call when SIGTERM arrives;
 * past `SHUTDOWN_TIMEOUT_MS` the server terminates its job thread, releases the job and the
 * post's claim, and exits 0. The lock is then let go, so the dead server's insert may still
 * land (the hardest case: published, never recorded); a second server claims the job at
 * once, finds the part by its token, publishes the rest and marks the post sent. Each part
 * is on the network exactly once.
 *
 * PostgreSQL only: the second process and the test's lock need a database outside the server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { childEnv, pollUntil, startNode, type RunningNode } from "./support/child_node.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import type { Database } from "../adapters/postgres/open_database.ts";

const skip = process.env.DATABASE_URL ? false : "needs PostgreSQL (DATABASE_URL): a second server process and the test's table lock share the database";
if (skip) console.log(`# graceful_shutdown.test.ts skipped: ${skip}`);

const SHUTDOWN_TIMEOUT_MS = 1500;

describe("SIGTERM during a running publish job", { skip }, () => {
  let database: TestDatabase;
  let pool: Database;
  let dir: string;
  const servers: RunningNode[] = [];

  const serve = async (demoFile?: string) => {
    const env = childEnv({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS), LOG_LEVEL: "info" }, ["REDIS_URL"]);
    const node = startNode(["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", "0", ...(demoFile ? ["--demo-file", demoFile] : [])], { env });
    servers.push(node);
    const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(node.stdout)?.[1], {
      timeoutMs: 90_000,
      abort: () => (node.child.exitCode !== null ? `it exited: ${node.stderr}` : undefined),
    });
    return { node, url };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tl-shutdown-"));
    database = await createTestDatabase("postgres");
    pool = await database.open({ poolSize: 4 });
  });
  after(async () => {
    for (const node of servers) await node.stop("SIGKILL").catch(() => {});
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the job is released at the bound, the server exits 0, and a second server sends each part once", { timeout: 240_000 }, async () => {
    const { sql } = pool;
    const demoFile = join(dir, "demo.json");
    const first = await serve(demoFile);
    const world = JSON.parse(await readFile(demoFile, "utf8"));
    const marker = randomBytes(4).toString("hex");
    const texts = [`Shutdown ${marker} part 1/2`, `Shutdown ${marker} part 2/2`];
    const created = await fetch(`${first.url}/v1/scheduled-posts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${world.keys.write}`, "Content-Type": "application/json" },
      body: JSON.stringify({ parts: texts.map((text) => ({ text })), scheduled_for: new Date(Date.now() + 3_600_000).toISOString() }),
    });
    const body = (await created.json()) as any;
    assert.equal(created.status, 201, JSON.stringify(body));
    const postId = Number(body.data.id);

    // Hold the network's table: the publisher's insert of part 1 waits on this lock.
    const lock = await sql.reserve();
    try {
      await lock`begin`;
      await lock`lock table network_posts in exclusive mode`;
      // Due now (the API refuses a time under a minute ahead; the lead time is not what is tested).
      await sql`update scheduled_posts set scheduled_for = now() where id = ${postId}`;
      await sql`update jobs set run_at = now() where kind = 'publish_scheduled_post' and (payload->>'postId')::bigint = ${postId}`;
      const held = await pollUntil(
        "the publish job to be stuck in its network call",
        async () => {
          const [job] = await sql<{ id: number; status: string; locked_by: string | null }[]>`
          select id, status, locked_by from jobs where kind = 'publish_scheduled_post' and (payload->>'postId')::bigint = ${postId}`;
          // A lock on the network's table not granted: the publisher's write waits (the query text
          // may be cut short in pg_stat_activity, so the wait is read from pg_locks).
          const [waiting] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'network_posts' and not l.granted`;
          return job?.status === "running" && waiting.n > 0 ? job : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );

      const started = Date.now();
      const exit = await first.node.stop("SIGTERM", 30_000);
      assert.equal(exit.code, 0, `exit ${exit.code ?? exit.signal}\nstderr: ${first.node.stderr}`);
      assert.ok(Date.now() - started < SHUTDOWN_TIMEOUT_MS + 10_000, `stopped in ${Date.now() - started} ms`);
      const [job] = await sql<
        { status: string; locked_by: string | null; attempts: number }[]
      >`select status, locked_by, attempts from jobs where id = ${held.id}`;
      assert.deepEqual({ status: job.status, locked_by: job.locked_by }, { status: "queued", locked_by: null }, "the job is released, not left to its lease");
      const [post] = await sql<
        { status: string; publish_claimed_by: string | null }[]
      >`select status, publish_claimed_by from scheduled_posts where id = ${postId}`;
      assert.deepEqual(post, { status: "scheduled", publish_claimed_by: null }, "the post's claim is released");
      assert.match(
        first.node.stdout,
        /"job_kinds":\[[^\]]*"publish_scheduled_post"[^\n]*"msg":"Jobs still running at shutdown were released for another process"/,
      );
    } finally {
      // Let the dead server's blocked insert go on: it may land, unrecorded.
      await lock`rollback`;
      lock.release();
    }

    const second = await serve();
    const sent = await pollUntil(
      "the post to be sent by the second server",
      async () => {
        const [row] = await sql<{ status: string; x_post_ids: string[] | null }[]>`select status, x_post_ids from scheduled_posts where id = ${postId}`;
        return row.status === "scheduled" ? undefined : row;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    assert.equal(sent.status, "sent");
    assert.equal(sent.x_post_ids?.length, 2);
    const onNetwork = await sql<{ text: string; n: number }[]>`
      select text, count(*)::int as n from network_posts where text like ${`Shutdown ${marker}%`} group by text order by text`;
    assert.deepEqual(
      onNetwork.map((row) => [row.text, row.n]),
      texts.map((text) => [text, 1]),
      "each part on the network exactly once",
    );
    assert.equal((await second.node.stop("SIGTERM", 30_000)).code, 0);
  });
});
