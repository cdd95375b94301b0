/**
 * Real X, end to end (docs/x.md), as a new user tries it with the fake X server standing in for X:
 * real `threadline serve` processes configured for X connect two accounts through the URL flow
 * (the callback delivered to another process than the one that started it), publish a scheduled
 * thread with an image and a GIF from each after the first access tokens expired, show the calls
 * and their price in the usage report, and `threadline x check` reports both accounts healthy.
 * Embedded storage runs one process; PostgreSQL and Redis run two.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { childEnv, pollUntil, runNode, startNode, type RunningNode } from "./support/child_node.ts";
import { createTestDatabase, testRedisPrefix, type TestDatabase } from "./support/test_database.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { GIF_1X1, PNG_1X1 } from "./support/media_bytes.ts";

/** The callback X is told about; the test delivers X's redirect to a server itself. */
const CALLBACK = "https://threadline.example/connect/x/callback";
const APP = { clientId: "e2e-client", clientSecret: "e2e-secret" };
/** Access tokens live 2 seconds here, so the thread publishes after the first ones expired. */
const ACCESS_SECONDS = 2;
const CLI = ["--import", "tsx", "adapters/cli/main.ts"];

const modes = [
  { name: "embedded storage, one process", processes: 1, skip: false as const },
  {
    name: "PostgreSQL and Redis, two processes",
    processes: 2,
    skip: process.env.DATABASE_URL && process.env.REDIS_URL ? (false as const) : "needs DATABASE_URL and REDIS_URL",
  },
];

for (const mode of modes) {
  describe(`real X end to end: ${mode.name}`, { skip: mode.skip }, () => {
    let fake: FakeXServer;
    let dir: string;
    let database: TestDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    let world: any;
    const servers: { node: RunningNode; url: string }[] = [];

    const serve = async (demoFile?: string) => {
      const args = [...CLI, "serve", "--port", "0", ...(demoFile ? ["--demo-file", demoFile] : [])];
      const node = startNode(args, { env });
      const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(node.stdout)?.[1], {
        // The demo world is created through X (the fake) before the server listens.
        timeoutMs: 180_000,
        abort: () => (node.child.exitCode !== null ? `it exited: ${node.stderr}` : undefined),
      });
      servers.push({ node, url });
    };

    before(async () => {
      fake = await startFakeXServer({ app: { ...APP, accessSeconds: ACCESS_SECONDS } });
      dir = await mkdtemp(join(tmpdir(), "tl-x-e2e-"));
      const x = {
        X_API_BASE_URL: fake.url,
        X_BEARER_TOKEN: fake.bearerToken,
        X_CLIENT_ID: APP.clientId,
        X_CLIENT_SECRET: APP.clientSecret,
        X_AUTHORIZE_URL: `${fake.url}/i/oauth2/authorize`,
        X_OAUTH_CALLBACK_URL: CALLBACK,
        MEDIA_DIR: join(dir, "media"),
      };
      if (mode.processes === 2) {
        database = await createTestDatabase("postgres");
        env = childEnv({ ...x, DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: testRedisPrefix() }, []);
      } else {
        env = childEnv({ ...x, DATA_DIR: join(dir, "data") });
      }
      const demoFile = join(dir, "demo.json");
      await serve(demoFile);
      world = JSON.parse(await readFile(demoFile, "utf8"));
      if (mode.processes === 2) await serve();
    });

    after(async () => {
      for (const { node } of servers.splice(0)) await node.stop();
      await fake?.close();
      await database?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** A request to server `index` (the last one when there is one) with A's write key. */
    const call = async (index: number, method: string, path: string, body?: unknown) => {
      const server = servers[Math.min(index, servers.length - 1)];
      const answer = await fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${world.keys.write}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : undefined };
    };

    /** Starts on the first process, approves on X as `approver`, and delivers X's redirect to the last process. */
    const connect = async (approver: string) => {
      const started = await call(0, "POST", "/v1/accounts/connect");
      assert.equal(started.status, 200, JSON.stringify(started.body));
      fake.oauth!.approveAs(approver);
      const consent = await fetch(started.body.data.authorize_url, { redirect: "manual" });
      assert.equal(consent.status, 302);
      const back = new URL(consent.headers.get("location")!);
      const server = servers[servers.length - 1];
      const answer = await fetch(`${server.url}${back.pathname}${back.search}`, { headers: { Accept: "application/json" } });
      assert.equal(answer.status, 200, await answer.clone().text());
      return (await answer.json()).data;
    };

    /** Uploads `bytes` through `POST /v1/media` and the upload URL it answers; answers the object key. */
    const upload = async (bytes: Buffer, fileType: string) => {
      const announced = await call(0, "POST", "/v1/media", { filename: `dot.${fileType.split("/")[1]}`, file_type: fileType, size: bytes.length });
      assert.equal(announced.status, 201, JSON.stringify(announced.body));
      const put = await fetch(announced.body.data.upload_url, { method: "PUT", headers: { "Content-Type": fileType }, body: new Uint8Array(bytes) });
      assert.ok(put.ok, `the upload answered ${put.status}`);
      return announced.body.data.object_key as string;
    };

    test("two accounts connect through the URL flow and publish a scheduled thread with media after their first tokens expired", async () => {
      const main = await connect(world.accounts.main);
      const linked = await connect(world.accounts.linked);
      assert.deepEqual([main.relation, linked.relation], ["main", "linked"]);
      const listed = await call(0, "GET", "/v1/accounts?limit=100");
      for (const id of [world.accounts.main, world.accounts.linked]) {
        assert.equal(listed.body.data.find((account: any) => account.id === id)?.x_connection?.status, "connected", id);
      }
      const refreshesBefore = fake.oauth!.trades.refresh_token;

      const posts: { account: string; id: number; text: string }[] = [];
      for (const account of [world.accounts.main, world.accounts.linked]) {
        const image = await upload(PNG_1X1, "image/png");
        const gif = await upload(GIF_1X1, "image/gif");
        const text = `Launch notes ${randomBytes(4).toString("hex")}`;
        const created = await call(1, "POST", "/v1/scheduled-posts", {
          account_id: account,
          parts: [
            { text, media: [{ object_key: image, alt_text: "A one-pixel chart" }] },
            { text: `${text}, part two`, media: [{ object_key: gif }] },
          ],
          // The earliest a post may be scheduled (the spec's 60 seconds ahead): long after the first access tokens (2 s) expired.
          scheduled_for: new Date(Date.now() + 65_000).toISOString(),
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        posts.push({ account, id: created.body.data.id, text });
      }

      for (const post of posts) {
        const sent = await pollUntil(
          `post ${post.id} to be sent`,
          async () => {
            const read = await call(0, "GET", `/v1/scheduled-posts/${post.id}`);
            if (read.body?.data?.status === "error") throw new Error(`post ${post.id} failed: ${read.body.data.error}`);
            return read.body?.data?.status === "sent" ? read.body.data : undefined;
          },
          { timeoutMs: 150_000, intervalMs: 500 },
        );
        assert.equal(sent.x_post_ids?.length ?? sent.parts?.length, 2);
        // On X: two posts by the account, the second answering the first, each with its X media id.
        const tweets = fake.requests.filter(
          (request) => request.method === "POST" && request.pathname === "/2/tweets" && String(request.body?.text).startsWith(post.text),
        );
        assert.equal(tweets.length, 2, "each part posted once");
        for (const tweet of tweets) assert.equal(tweet.body.media?.media_ids?.length, 1, "the part's media went up as an X media id");
        const byAuthor = await fake.network.timeline(post.account, { limit: 20 } as never);
        assert.ok(
          byAuthor.items.some((item: any) => item.text === post.text),
          "the thread is on the account's timeline",
        );
      }
      assert.ok(fake.oauth!.trades.refresh_token >= refreshesBefore + 2, "each account's expired token was refreshed before publishing");
      const altText = fake.requests.find((request) => request.pathname === "/2/media/metadata");
      assert.ok(altText, "the alt text was sent to X");
    });

    test("the usage report shows each account's X calls and their price", async () => {
      const report = await call(0, "GET", "/v1/x/usage");
      assert.equal(report.status, 200, JSON.stringify(report.body));
      for (const id of [world.accounts.main, world.accounts.linked]) {
        const row = report.body.data.accounts.find((account: any) => account.account_id === id);
        assert.ok(row, `the report names ${id}: ${JSON.stringify(report.body.data)}`);
        const posts = row.kinds.find((kind: any) => kind.kind === "post_create");
        assert.ok(posts?.calls >= 2, `both parts of ${id}'s thread are counted: ${JSON.stringify(row)}`);
        assert.ok(posts.spend_usd >= 2 * 0.015 - 1e-9, "at X's $0.015 a post");
        const sum = row.kinds.reduce((total: number, kind: any) => total + kind.spend_usd, 0);
        assert.ok(Math.abs(sum - row.spend_usd) < 1e-6, "the account's spend is the sum of its kinds");
      }
    });

    test("threadline x check reports both accounts healthy", async () => {
      // Embedded storage belongs to one process: the server lets go of it first.
      if (mode.processes === 1) for (const { node } of servers.splice(0)) await node.stop();
      const checked = await runNode([...CLI, "x", "check", "--json"], { env, timeoutMs: 60_000 });
      assert.equal(checked.code, 0, `${checked.stdout}\n${checked.stderr}`);
      const report = JSON.parse(checked.stdout);
      const ids = report.accounts.map((account: any) => account.account_id).sort();
      assert.deepEqual(ids, [world.accounts.main, world.accounts.linked].sort());
      assert.ok(report.accounts.every((account: any) => account.healthy));
      assert.doesNotMatch(checked.stdout + checked.stderr, /xat-|xrt-|tl1\./, "no token in the output");
    });
  });
}
