/**
 * The publisher (docs/areas.md "Scheduling"): due posts go out through the SocialNetwork port as threads in
 * order, end `sent` with the network's ids or `error` with a readable reason and an exact
 * quota refund, and never publish a part twice: not after a transient failure, not after
 * an unknown outcome, not when several runners race, not when the process dies between
 * parts. Runs on the storage the environment names (embedded PGlite, or PostgreSQL with
 * `DATABASE_URL`); the cases that need a second process need PostgreSQL.
 */
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.ts";
import type { Sql } from "../core/db/sql.ts";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { sweepStaleJobs, type JobRow } from "../core/jobs/jobs_queries.ts";
import { NetworkTimeoutError, NetworkUnavailableError } from "../core/network/network_errors.ts";
import type { NetworkPost } from "../core/network/network_records.ts";
import type { PublishPostInput, SocialNetwork } from "../core/network/social_network.ts";
import { deductPostQuota } from "../core/post_quota/post_quota.ts";
import { publishNow, publishScheduledPost, partToken, type PublishDeps, type PublishNowResult } from "../core/scheduling/publish_post.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, updatePostColumns, type StoredPart } from "../core/scheduling/scheduled_posts_queries.ts";
import { claimPosts } from "../core/scheduling/publish_queries.ts";
import { finishSentPosts } from "../core/scheduling/finish_sent.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { childEnv, pollUntil, startNode } from "./support/child_node.ts";
import { startHarness, transports, type Harness } from "./support/harness.ts";

const JOB_KIND = "publish_scheduled_post";
const postgresOnly = process.env.DATABASE_URL
  ? false
  : "needs DATABASE_URL: embedded PGlite in memory belongs to one process, so a second process cannot share it";

/** The network, delegating to `base`, with its publishes and lookups recorded and an optional fault per publish. */
function observedNetwork(
  base: SocialNetwork,
  hooks: { before?(input: PublishPostInput): Promise<void> | void; after?(input: PublishPostInput, post: NetworkPost): Promise<void> | void } = {},
) {
  const calls = { publish: [] as string[], find: [] as string[] };
  const network: SocialNetwork = {
    ...base,
    async publishPost(input) {
      calls.publish.push(input.token ?? "");
      await hooks.before?.(input);
      const post = await base.publishPost(input);
      await hooks.after?.(input, post);
      return post;
    },
    async findPublished(query) {
      calls.find.push(query.token ?? "");
      return base.findPublished(query);
    },
  };
  return { network, calls };
}

/** The part index a token names (`tl:<post>:<version>:<index>`). */
const partOf = (token: string | undefined) => Number(token?.split(":").at(-1));

describe(`the publisher on ${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}`, { timeout: 180_000 }, () => {
  let harness: Harness;
  let sql: Sql;
  let clock: Clock;
  let account: string;
  let deps: PublishDeps;

  before(async () => {
    harness = await startHarness();
    ({ sql, clock } = harness.services);
    account = harness.world.accounts.main;
    deps = { sql, network: harness.services.network, clock };
  });
  after(() => harness.close());
  beforeEach(async () => {
    // Each case runs only its own jobs.
    await sql`delete from jobs where kind = ${JOB_KIND}`;
  });

  /** A scheduled post as the create endpoint leaves it: quota unit taken, publish job enqueued. */
  async function schedulePost(parts: (string | StoredPart)[], scheduledFor = new Date(clock.now() - 1000)): Promise<{ postId: number; version: number }> {
    const stored = parts.map((part) => (typeof part === "string" ? { text: part, media: [] } : part));
    return sql.begin(async (tx) => {
      const now = new Date(clock.now());
      const postId = await insertPost(tx, account, { status: "scheduled", scheduled_for: scheduledFor, parts: stored }, now);
      const charge = await deductPostQuota(tx, account, [`post:${postId}`], { now, reason: "scheduled" });
      await updatePostColumns(tx, postId, { quota_period_start: charge.periodStart }, now);
      await schedulePublication(tx, [postId]);
      const [{ publish_version }] = await tx<{ publish_version: number }[]>`select publish_version from scheduled_posts where id = ${postId}`;
      return { postId, version: publish_version };
    });
  }

  /** Distinct texts: the network refuses the same text twice a day. */
  const texts = (count: number) => {
    const tag = randomBytes(4).toString("hex");
    return Array.from({ length: count }, (_, i) => `Thread ${tag}, part ${i + 1} of ${count}`);
  };

  async function postRow(postId: number) {
    const [row] = await sql<
      {
        status: string;
        x_post_ids: string[] | null;
        error: string | null;
        sent_at: Date | null;
        quota_period_start: Date | null;
        publish_claimed_by: string | null;
      }[]
    >`
      select status, x_post_ids, error, sent_at, quota_period_start, publish_claimed_by from scheduled_posts where id = ${postId}`;
    return row;
  }

  /** What the network holds for a post's version: one row per part token. */
  async function onNetwork(postId: number, version: number) {
    return sql<{ client_token: string; post_id: string; text: string; reply_to_id: string | null; media_keys: string[] }[]>`
      select client_token, post_id, text, reply_to_id, media_keys from network_posts
       where author_id = ${account} and client_token like ${`tl:${postId}:${version}:%`} order by client_token`;
  }

  async function partStates(postId: number, version: number) {
    const rows = await sql<{ part_index: number; state: string }[]>`
      select part_index, state from publish_parts where post_id = ${postId} and publish_version = ${version} order by part_index`;
    return rows.map((row) => `${row.part_index}:${row.state}`);
  }

  async function runJobs(network: SocialNetwork) {
    const handlers = jobHandlers({ sql, clock, network });
    return runJobsOnce({ sql, handlers: { [JOB_KIND]: handlers[JOB_KIND] }, runnerId: "publisher-test", batchSize: 20 });
  }

  /** Makes retried publish jobs due now instead of after their backoff. */
  const retryNow = () => sql`update jobs set run_at = now() - interval '1 second' where kind = ${JOB_KIND} and status = 'queued'`;

  async function ledgerOf(postId: number) {
    return sql<{ delta: number; reason: string }[]>`select delta, reason from post_quota_ledger where subject = ${`post:${postId}`} order by id`;
  }

  test("a due thread goes out in order, each part answering the previous one, media attached, and ends sent", async () => {
    const [first, second, third] = texts(3);
    const { postId, version } = await schedulePost([
      first,
      {
        text: second,
        media: [
          { object_key: "media/a.png", alt_text: "A" },
          { object_key: "media/b.png", alt_text: null },
        ],
      },
      third,
    ]);
    const result = await runJobs(deps.network);
    assert.deepEqual(result, { claimed: 1, completed: 1, retried: 0, failed: 0 });

    const row = await postRow(postId);
    assert.equal(row.status, "sent");
    assert.ok(row.sent_at);
    assert.equal(row.publish_claimed_by, null);
    assert.equal(row.x_post_ids?.length, 3);
    const ids = row.x_post_ids!;
    const posts = await Promise.all(ids.map((id) => deps.network.postById(id)));
    assert.deepEqual(
      posts.map((post) => post.text),
      [first, second, third],
    );
    assert.deepEqual(
      posts.map((post) => post.replyToId),
      [null, ids[0], ids[1]],
    );
    assert.deepEqual(
      posts.map((post) => post.conversationId),
      [ids[0], ids[0], ids[0]],
    );
    assert.ok(posts.every((post) => post.authorId === account));
    assert.deepEqual(
      posts[1].media.map((item) => item.key),
      ["media/a.png", "media/b.png"],
    );
    assert.deepEqual(await partStates(postId, version), ["0:published", "1:published", "2:published"]);
    const timeline = await deps.network.timeline(account, { limit: 10 });
    assert.ok(
      ids.every((id) => timeline.items.some((post) => post.id === id)),
      "the parts are on the author's timeline",
    );
    // The quota unit stays spent.
    assert.deepEqual(
      (await ledgerOf(postId)).map((entry) => entry.delta),
      [1],
    );
  });

  test("a job for an older version, or for a post not due yet, publishes nothing", async () => {
    const [text] = texts(1);
    const { postId, version } = await schedulePost([text]);
    // Rescheduled: version 2 with its own job; version 1's job is stale.
    await sql.begin((tx) => schedulePublication(tx, [postId]));
    const { network, calls } = observedNetwork(deps.network);
    assert.deepEqual(await publishScheduledPost({ ...deps, network }, { postId, version }), { outcome: "skipped", reason: "stale" });
    assert.deepEqual(calls.publish, []);
    assert.equal((await postRow(postId)).status, "scheduled");

    const later = await schedulePost(texts(1), new Date(clock.now() + 3_600_000));
    const early = await publishScheduledPost({ ...deps, network }, later);
    assert.equal(early.outcome, "not_due");
    assert.deepEqual(calls.publish, []);
    assert.deepEqual(await publishScheduledPost({ ...deps, network }, { postId: 987_654_321, version: 1 }), { outcome: "skipped", reason: "missing" });

    const current = await publishScheduledPost({ ...deps, network }, { postId, version: version + 1 });
    assert.equal(current.outcome, "sent");
    assert.deepEqual(calls.publish, [partToken(postId, version + 1, 0)]);
  });

  test("a transient failure is retried by the job and publishes each part once", async () => {
    const { postId, version } = await schedulePost(texts(3));
    let failed = false;
    const { network, calls } = observedNetwork(deps.network, {
      before(input) {
        if (partOf(input.token) === 1 && !failed) {
          failed = true;
          throw new NetworkUnavailableError();
        }
      },
    });
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 0, retried: 1, failed: 0 });
    const waiting = await postRow(postId);
    assert.equal(waiting.status, "scheduled");
    assert.equal(waiting.publish_claimed_by, null, "the claim is let go so the retry need not wait for its lease");
    await retryNow();
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 1, retried: 0, failed: 0 });

    assert.equal((await postRow(postId)).status, "sent");
    assert.deepEqual(calls.publish.map(partOf), [0, 1, 1, 2]);
    // Part 1 was `publishing` when the network failed: the retry asked before publishing it again.
    assert.deepEqual(calls.find.map(partOf), [1]);
    assert.deepEqual(
      (await onNetwork(postId, version)).map((row) => partOf(row.client_token)),
      [0, 1, 2],
    );
  });

  test("a part whose publish timed out after landing is reconciled, not published again", async () => {
    const { postId, version } = await schedulePost(texts(2));
    let timedOut = false;
    const { network, calls } = observedNetwork(deps.network, {
      after(input) {
        if (partOf(input.token) === 0 && !timedOut) {
          timedOut = true;
          throw new NetworkTimeoutError();
        }
      },
    });
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 0, retried: 1, failed: 0 });
    assert.deepEqual(await partStates(postId, version), ["0:publishing"]);
    await retryNow();
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 1, retried: 0, failed: 0 });
    assert.deepEqual(calls.publish.map(partOf), [0, 1], "part 0 was found on the network, not published twice");
    assert.deepEqual(calls.find.map(partOf), [0]);
    const landed = await onNetwork(postId, version);
    assert.equal(landed.length, 2);
    assert.deepEqual(
      (await postRow(postId)).x_post_ids,
      landed.map((row) => row.post_id),
    );
    assert.equal(landed[1].reply_to_id, landed[0].post_id);
  });

  test("a publishing row left by a crash whose post landed is reconciled without re-posting", async () => {
    const parts = texts(2);
    const { postId, version } = await schedulePost(parts);
    // What a process that died right after the network answered leaves behind.
    const token = partToken(postId, version, 0);
    const landed = await deps.network.publishPost({ authorId: account, text: parts[0], token });
    await sql`insert into publish_parts (post_id, publish_version, part_index, state, token, started_at)
              values (${postId}, ${version}, 0, 'publishing', ${token}, now())`;
    const { network, calls } = observedNetwork(deps.network);
    const result = await publishScheduledPost({ ...deps, network }, { postId, version });
    assert.equal(result.outcome, "sent");
    assert.deepEqual(calls.find, [token]);
    assert.deepEqual(calls.publish.map(partOf), [1]);
    const row = await postRow(postId);
    assert.equal(row.x_post_ids?.[0], landed.id);
    assert.equal((await onNetwork(postId, version)).length, 2);
  });

  test("a refused part ends the post error with a readable reason and refunds exactly its quota unit", async () => {
    const parts = texts(2);
    const tooMany = ["1", "2", "3", "4", "5"].map((n) => ({ object_key: `media/${n}.png`, alt_text: null }));
    const { postId, version } = await schedulePost([parts[0], { text: parts[1], media: tooMany }]);
    const [before] = await sql<{ used: number }[]>`select used from post_quota_usage u join accounts a on a.user_id = u.user_id where a.id = ${account}`;
    assert.deepEqual(await runJobs(deps.network), { claimed: 1, completed: 1, retried: 0, failed: 0 });

    const row = await postRow(postId);
    assert.equal(row.status, "error");
    assert.equal(
      row.error,
      "X refused part 2 of 2: A post carries at most 4 media (part 1 is already published; scheduled again, the post continues after it)",
    );
    assert.equal(row.quota_period_start, null);
    assert.equal(row.publish_claimed_by, null);
    assert.deepEqual(
      [...(await ledgerOf(postId))],
      [
        { delta: 1, reason: "scheduled" },
        { delta: -1, reason: "publish failed" },
      ],
    );
    const [afterwards] = await sql<{ used: number }[]>`select used from post_quota_usage u join accounts a on a.user_id = u.user_id where a.id = ${account}`;
    assert.equal(afterwards.used, before.used - 1);
    assert.equal((await onNetwork(postId, version)).length, 1);
    // A later run of the same version finds it settled.
    assert.deepEqual(await publishScheduledPost(deps, { postId, version }), { outcome: "failed", error: row.error });
  });

  /** Schedules a failed post again over REST with `parts`, then makes it due; answers its new version. */
  async function scheduleAgain(postId: number, parts: StoredPart[]): Promise<number> {
    const at = new Date(clock.now() + 5 * 60_000).toISOString();
    const answer = await transports(harness)[0].request("PATCH", `/v1/scheduled-posts/${postId}`, {
      key: harness.world.keys.write,
      body: { status: "scheduled", scheduled_for: at, parts },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.status, "scheduled");
    const [row] = await sql<{ publish_version: number }[]>`
      update scheduled_posts set scheduled_for = ${new Date(clock.now() - 1000)} where id = ${postId} returning publish_version`;
    return row.publish_version;
  }

  /** The posts of the account on the network with `text`. */
  const postsWithText = (text: string) => sql<{ post_id: string }[]>`select post_id from network_posts where author_id = ${account} and text = ${text}`;

  test("a thread that failed part-way and is scheduled again continues after the parts already on X", async () => {
    const parts = texts(3);
    const tooMany = ["1", "2", "3", "4", "5"].map((n) => ({ object_key: `media/${n}.png`, alt_text: null }));
    const { postId, version } = await schedulePost([parts[0], { text: parts[1], media: tooMany }, parts[2]]);
    await publishScheduledPost(deps, { postId, version });
    const failed = await postRow(postId);
    assert.equal(failed.status, "error");
    assert.match(failed.error ?? "", /part 1 is already published; scheduled again, the post continues after it/);
    const [first] = await onNetwork(postId, version);

    const again = await scheduleAgain(
      postId,
      parts.map((text) => ({ text, media: [] })),
    );
    assert.ok(again > version);
    const { network, calls } = observedNetwork(deps.network);
    const result = await publishScheduledPost({ ...deps, network }, { postId, version: again });
    assert.equal(result.outcome, "sent");
    assert.deepEqual(calls.publish.map(partOf), [1, 2], "part 1 was not posted again");
    const landed = await onNetwork(postId, again);
    const row = await postRow(postId);
    assert.deepEqual(row.x_post_ids, [first.post_id, ...landed.map((part) => part.post_id)]);
    assert.equal(landed[0].reply_to_id, first.post_id, "part 2 answers the part 1 already on X");
    assert.equal((await postsWithText(parts[0])).length, 1);
  });

  test("a part changed before scheduling again is published anew, and so is every part after it", async () => {
    const parts = texts(2);
    const tooMany = ["1", "2", "3", "4", "5"].map((n) => ({ object_key: `media/${n}.png`, alt_text: null }));
    const { postId, version } = await schedulePost([parts[0], { text: parts[1], media: tooMany }]);
    await publishScheduledPost(deps, { postId, version });
    assert.equal((await postRow(postId)).status, "error");
    const edited = `${parts[0]} (edited)`;
    const again = await scheduleAgain(postId, [
      { text: edited, media: [] },
      { text: parts[1], media: [] },
    ]);
    const { network, calls } = observedNetwork(deps.network);
    assert.equal((await publishScheduledPost({ ...deps, network }, { postId, version: again })).outcome, "sent");
    assert.deepEqual(calls.publish.map(partOf), [0, 1]);
    assert.equal((await postsWithText(edited)).length, 1);
  });

  test("a part whose outcome an earlier version never learned is looked up before the post continues", async () => {
    const parts = texts(2);
    const { postId, version } = await schedulePost(parts);
    // What an earlier publication that lost its last attempt's answer leaves: part 1 landed, still `publishing`.
    const token = partToken(postId, version, 0);
    const landed = await deps.network.publishPost({ authorId: account, text: parts[0], token });
    await sql`insert into publish_parts (post_id, publish_version, part_index, state, token, started_at, content)
              values (${postId}, ${version}, 0, 'publishing', ${token}, now(), ${sql.json({ text: parts[0], media: [] })})`;
    await sql`update scheduled_posts set status = 'error', error = 'lost', quota_period_start = null where id = ${postId}`;
    const again = await scheduleAgain(
      postId,
      parts.map((text) => ({ text, media: [] })),
    );
    const { network, calls } = observedNetwork(deps.network);
    assert.equal((await publishScheduledPost({ ...deps, network }, { postId, version: again })).outcome, "sent");
    assert.deepEqual(calls.find, [token], "the earlier attempt's token was looked up");
    assert.deepEqual(calls.publish.map(partOf), [1]);
    assert.equal((await postRow(postId)).x_post_ids?.[0], landed.id);
  });

  test("a network that stays unreachable ends the post error after the job's last attempt, quota refunded once", async () => {
    const { postId } = await schedulePost(texts(1));
    const { network } = observedNetwork(deps.network, {
      before() {
        throw new NetworkUnavailableError();
      },
    });
    const [job] = await sql<JobRow[]>`select * from jobs where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
    for (let attempt = 1; attempt < job.max_attempts; attempt++) {
      assert.deepEqual(await runJobs(network), { claimed: 1, completed: 0, retried: 1, failed: 0 }, `attempt ${attempt}`);
      assert.equal((await postRow(postId)).status, "scheduled");
      await retryNow();
    }
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 1, retried: 0, failed: 0 });
    const row = await postRow(postId);
    assert.equal(row.status, "error");
    assert.equal(row.error, `X could not publish the post after ${job.max_attempts} attempts: X is unreachable`);
    assert.deepEqual(
      (await ledgerOf(postId)).map((entry) => entry.delta),
      [1, -1],
    );
  });

  test("publishNow() publishes inline, answers retry on a transient failure, and settles like the job", async () => {
    const { postId, version } = await schedulePost(texts(2));
    const down = observedNetwork(deps.network, {
      before() {
        throw new NetworkUnavailableError();
      },
    });
    assert.deepEqual(await publishNow({ ...deps, network: down.network }, { postId, version }), { outcome: "retry", error: "X is unreachable" });
    assert.equal((await postRow(postId)).status, "scheduled");
    const first = await publishNow(deps, { postId, version });
    assert.equal(first.outcome, "sent");
    assert.equal(first.outcome === "sent" && first.byThisCall, true);
    // A retry of the request (or the fallback job) answers the same ids without publishing.
    const { network, calls } = observedNetwork(deps.network);
    const again = await publishNow({ ...deps, network }, { postId, version });
    assert.deepEqual(again, { outcome: "sent", xPostIds: first.outcome === "sent" ? first.xPostIds : [], byThisCall: false });
    assert.deepEqual(calls.publish, []);
    // The post's job (the fallback of a request that died) finds it sent.
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 1, retried: 0, failed: 0 });
    assert.deepEqual(calls.publish, []);
  });

  test("runners racing on one due post publish it once", async () => {
    const { postId, version } = await schedulePost(texts(3));
    // PostgreSQL: three pools, as three processes would have. Embedded: one session.
    const pools = harness.database.mode === "postgres" ? await Promise.all([1, 2].map(() => harness.database.open({ poolSize: 2 }))) : [];
    const { network, calls } = observedNetwork(deps.network, {
      // Slow enough that the racers overlap.
      before: () => new Promise((resolve) => setTimeout(resolve, 20)),
    });
    const sqls = [sql, ...pools.map((pool) => pool.sql)];
    const racers: Promise<PublishNowResult>[] = [
      publishScheduledPost({ sql: sqls[0], network, clock }, { postId, version }),
      publishScheduledPost({ sql: sqls[1 % sqls.length], network, clock }, { postId, version }),
      publishNow({ sql: sqls[2 % sqls.length], network, clock }, { postId, version }),
    ];
    const [runner, ...results] = await Promise.all([runJobs(network), ...racers]);
    for (const pool of pools) await pool.close();
    // The job runner is the fourth racer: it either published the post or met it busy or sent.
    const winners =
      results.filter((result) => result.outcome === "sent" && result.byThisCall).length +
      (runner.completed === 1 && results.every((result) => !(result.outcome === "sent" && result.byThisCall)) ? 1 : 0);
    assert.equal(winners, 1, JSON.stringify({ runner, results }));
    assert.ok(
      results.every((result) => result.outcome === "sent" || result.outcome === "busy"),
      JSON.stringify(results),
    );
    assert.deepEqual(calls.publish.map(partOf), [0, 1, 2], "each part was asked for once");
    assert.equal((await onNetwork(postId, version)).length, 3);
    const sent = await postRow(postId);
    assert.equal(sent.status, "sent");
    // The job settles, now or on its retry.
    await retryNow();
    await runJobs(network);
    const [job] = await sql<JobRow[]>`select * from jobs where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
    assert.equal(job.status, "done");
  });

  test("a burst of due posts is claimed, published and marked sent in shared statements, each with its own event and follow-ups", async () => {
    const count = 30;
    const posts = await Promise.all(texts(count).map((text) => schedulePost([text])));
    // Every third post asks for a repost two hours after it went out.
    const reposted = posts.filter((_, i) => i % 3 === 0).map((post) => post.postId);
    await sql`update scheduled_posts set auto_retweet = '{"after_hours": 2}'::jsonb where id = any(${sql.array(reposted)}::bigint[])`;
    const ids = posts.map((post) => post.postId);
    const [{ before }] = await sql<{ before: number }[]>`select coalesce(max(id), 0)::int as before from events`;
    const { network, calls } = observedNetwork(deps.network);
    const handlers = jobHandlers({ sql, clock, network });
    const result = await runJobsOnce({ sql, handlers: { [JOB_KIND]: handlers[JOB_KIND] }, runnerId: "publisher-burst", batchSize: count });
    assert.equal(result.completed, count, JSON.stringify(result));
    assert.equal(calls.publish.length, count, "each post was asked for once");
    const rows = await sql<{ id: number; status: string; x_post_ids: string[]; publish_claimed_by: string | null }[]>`
      select id::int as id, status, x_post_ids, publish_claimed_by from scheduled_posts where id = any(${sql.array(ids)}::bigint[])`;
    assert.equal(rows.length, count);
    for (const row of rows) {
      assert.equal(row.status, "sent");
      assert.equal(row.x_post_ids.length, 1);
      assert.equal(row.publish_claimed_by, null, "the claim is let go");
    }
    // One post.sent per post, carrying that post as it reads once sent.
    const events = await sql<{ object_id: string; data: { id: string; status: string; x_post_ids: string[] } }[]>`
      select object_id, data from events where id > ${before} and type = 'post.sent' and object_id = any(${sql.array(ids.map(String))}::text[])`;
    assert.equal(events.length, count);
    const idsOf = new Map(rows.map((row) => [String(row.id), row.x_post_ids]));
    for (const event of events) {
      assert.equal(event.data.id, event.object_id);
      assert.equal(event.data.status, "sent");
      assert.deepEqual(event.data.x_post_ids, idsOf.get(event.object_id));
    }
    const followUps = await sql<{ unique_key: string }[]>`
      select unique_key from jobs where unique_key = any(${sql.array(ids.map((id) => `follow-up:${id}:repost`))}::text[]) order by unique_key`;
    assert.deepEqual(followUps.map((job) => job.unique_key).sort(), reposted.map((id) => `follow-up:${id}:repost`).sort());
  });

  test("two claims of one post in one statement: one holder wins; a stale holder cannot mark it sent", async () => {
    const { postId, version } = await schedulePost(texts(1));
    const now = new Date(clock.now());
    const claim = (holder: string) => ({ postId, version, holder, leaseSeconds: 60, now, firstToken: partToken(postId, version, 0) });
    const [first, second] = await claimPosts(sql, [claim("holder-a"), claim("holder-b")]);
    assert.equal([first, second].filter(Boolean).length, 1, "exactly one claim won");
    const winner = first ? "holder-a" : "holder-b";
    const loser = first ? "holder-b" : "holder-a";
    const at = new Date(clock.now());
    const sent = (holder: string) => ({ claim: { postId, version, holder, leaseSeconds: 60 }, part: { index: 0, xPostId: "1" }, xPostIds: ["1"], at });
    assert.deepEqual(await finishSentPosts(sql, [sent(loser)]), [false]);
    assert.equal((await postRow(postId)).status, "scheduled");
    assert.deepEqual(await finishSentPosts(sql, [sent(winner)]), [true]);
    assert.equal((await postRow(postId)).status, "sent");
  });

  test("the worker thread opens its own network and publishes what the server's network then reads", { skip: postgresOnly }, async () => {
    const { postId } = await schedulePost(texts(2));
    const runner = await startJobs({ databaseUrl: harness.database.url, ports: { network: {} }, periodic: false, pollIntervalMs: 50 });
    try {
      const ids = await pollUntil(
        "the post to be sent",
        async () => {
          const row = await postRow(postId);
          return row.status === "sent" ? row.x_post_ids! : undefined;
        },
        { timeoutMs: 30_000 },
      );
      const posts = await Promise.all(ids.map((id) => deps.network.postById(id)));
      assert.equal(posts[1].replyToId, ids[0]);
    } finally {
      await runner.stop();
    }
  });

  test("a publisher killed between thread parts, then restarted, publishes every part exactly once", { skip: postgresOnly }, async () => {
    const { postId, version } = await schedulePost(texts(5));
    const child = startNode(
      ["--import", "tsx", "test/support/publisher_crash_process.ts", "--url", harness.database.url!, "--crash-after", "2", "--lease", "2"],
      {
        env: childEnv(),
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The publisher process did not die within 60 s\nstdout: ${child.stdout}\nstderr: ${child.stderr}`)), 60_000);
    });
    const exit = await Promise.race([child.exited, late]).finally(() => clearTimeout(timer));
    assert.equal(exit.signal, "SIGKILL", `stdout: ${child.stdout}\nstderr: ${child.stderr}`);
    assert.deepEqual(child.stdout.match(/landed \d/g), ["landed 0", "landed 1", "landed 2"]);
    // The worst moment: part 3 (index 2) is on the network, its outcome unrecorded.
    assert.deepEqual(await partStates(postId, version), ["0:published", "1:published", "2:publishing"]);
    assert.equal((await onNetwork(postId, version)).length, 3);

    // Restart: once the dead worker's leases pass, the sweep hands the job back.
    await pollUntil(
      "the dead worker's job to return to the queue",
      async () => {
        await sweepStaleJobs(sql);
        const [job] = await sql<JobRow[]>`select * from jobs where kind = ${JOB_KIND} and payload->>'postId' = ${String(postId)}`;
        return job.status === "queued" ? job : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    await pollUntil(
      "the dead worker's claim on the post to pass",
      async () => {
        const [row] = await sql<{ passed: boolean }[]>`select publish_claimed_until < now() as passed from scheduled_posts where id = ${postId}`;
        return row.passed ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const { network, calls } = observedNetwork(deps.network);
    assert.deepEqual(await runJobs(network), { claimed: 1, completed: 1, retried: 0, failed: 0 });

    assert.deepEqual(calls.find.map(partOf), [2], "the unknown outcome was reconciled");
    assert.deepEqual(calls.publish.map(partOf), [3, 4], "only the parts that never went out were published");
    const landed = await onNetwork(postId, version);
    assert.deepEqual(
      landed.map((row) => partOf(row.client_token)),
      [0, 1, 2, 3, 4],
      "every part exactly once",
    );
    const row = await postRow(postId);
    assert.equal(row.status, "sent");
    assert.deepEqual(
      row.x_post_ids,
      landed.map((part) => part.post_id),
    );
    assert.deepEqual(
      landed.map((part) => part.reply_to_id),
      [null, ...landed.slice(0, -1).map((part) => part.post_id)],
    );
  });
});
