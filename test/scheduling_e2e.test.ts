/**
 * End to end through real `threadline serve` processes and their job runners (issue 5,
 * "Done when": "a scheduled thread goes out exactly once at its minute"): a three-part
 * thread with an image, queued for the next minute over REST, is published by the job
 * runner at that minute as a reply chain, reads back `sent` with the network's ids, and
 * appears on the network once. On PostgreSQL two server processes run their job runners
 * side by side, and the post still goes out once.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { childEnv, pollUntil, startNode, type RunningNode } from "./support/child_node.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { PNG_1X1 } from "./support/media_bytes.ts";

const postgresMode = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe(`a scheduled thread through the real server and jobs (${postgresMode ? "two processes on PostgreSQL + Redis" : "embedded"})`, () => {
  let database: TestDatabase | undefined;
  let dir: string;
  const servers: { node: RunningNode; url: string }[] = [];
  let world: any;

  const serve = async (demoFile?: string) => {
    const env = postgresMode
      ? childEnv({ DATABASE_URL: database!.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `tl:e2e:${randomBytes(3).toString("hex")}:` }, [])
      : childEnv({ DATA_DIR: join(dir, "data") });
    const args = ["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", "0", ...(demoFile ? ["--demo-file", demoFile] : [])];
    const node = startNode(args, { env });
    const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(node.stdout)?.[1], {
      timeoutMs: 90_000,
      abort: () => (node.child.exitCode !== null ? `it exited: ${node.stderr}` : undefined),
    });
    servers.push({ node, url });
    return url;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tl-e2e-"));
    if (postgresMode) database = await createTestDatabase("postgres");
    const demoFile = join(dir, "demo.json");
    await serve(demoFile);
    world = JSON.parse(await readFile(demoFile, "utf8"));
    if (postgresMode) await serve();
  });

  after(async () => {
    for (const { node } of servers) await node.stop();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the thread goes out once, in order, at its minute", { timeout: 180_000 }, async () => {
    const api = (index: number, method: string, path: string, body?: unknown) =>
      fetch(`${servers[index % servers.length].url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${world.keys.write}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

    const announced = await api(0, "POST", "/v1/media", { filename: "dot.png", file_type: "image/png", size: PNG_1X1.length });
    assert.equal(announced.status, 201, JSON.stringify(announced.body));
    const put = await fetch(announced.body.data.upload_url, { method: "PUT", headers: { "Content-Type": "image/png" }, body: new Uint8Array(PNG_1X1) });
    assert.ok(put.ok, `upload answered ${put.status}`);

    // The next whole minute at least 60 s ahead (the scheduling lead time).
    const minute = new Date(Math.ceil((Date.now() + 61_000) / 60_000) * 60_000);
    const marker = randomBytes(4).toString("hex");
    const texts = [1, 2, 3].map((n) => `End to end ${marker} part ${n}/3`);
    const created = await api(0, "POST", "/v1/scheduled-posts", {
      parts: [{ text: texts[0], media: [{ object_key: announced.body.data.object_key, alt_text: "A dot" }] }, { text: texts[1] }, { text: texts[2] }],
      scheduled_for: minute.toISOString(),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.status, "scheduled");
    const id = created.body.data.id;

    const listed = await api(1, "GET", `/v1/scheduled-posts?status=scheduled&from=${minute.toISOString()}&to=${minute.toISOString()}`);
    assert.ok(listed.body.data.some((post: any) => post.id === id), "the queued thread is listed at its minute");

    const sent = await pollUntil("the thread to be sent", async () => {
      const answer = await api(1, "GET", `/v1/scheduled-posts/${id}`);
      return answer.body.data?.status === "scheduled" ? undefined : answer.body.data;
    }, { timeoutMs: minute.getTime() - Date.now() + 60_000, intervalMs: 500 });
    assert.equal(sent.status, "sent", JSON.stringify(sent));
    assert.equal(sent.x_post_ids.length, 3);
    const postedAt = new Date(sent.posted_at).getTime();
    assert.ok(postedAt >= minute.getTime(), `posted at ${sent.posted_at}, before its minute ${minute.toISOString()}`);
    assert.ok(postedAt - minute.getTime() < 15_000, `posted at ${sent.posted_at}, more than 15 s after ${minute.toISOString()}`);

    const parts = [];
    for (const xId of sent.x_post_ids) {
      const answer = await api(0, "GET", `/v1/x/posts/${xId}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      parts.push(answer.body.data);
    }
    assert.deepEqual(parts.map((post: any) => post.text), texts);
    const timeline = await api(0, "GET", `/v1/x/users/${world.handles.main}/posts?limit=100`);
    assert.equal(timeline.status, 200, JSON.stringify(timeline.body));
    for (const text of texts) {
      assert.equal(timeline.body.data.filter((post: any) => post.text === text).length, 1, `"${text}" appears once`);
    }
  });
});
