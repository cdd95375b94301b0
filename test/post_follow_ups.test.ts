/**
 * What a sent post's settings do afterwards (supplement: Scheduling, `auto_retweet`,
 * `auto_delete`): jobs armed when the post is sent repost it after `after_hours`, undo the
 * repost `remove_after_hours` later, and delete a post still under `threshold` views; each
 * step happens once however often its job runs.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { FOLLOW_UP_JOB_KIND } from "../core/scheduling/post_follow_ups.ts";
import { NetworkNotFoundError } from "../core/network/network_errors.ts";
import { startHarness, transports, type Harness } from "./support/harness.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

/** Publishes a post now over REST with `settings`; answers the sent post. */
async function sendNow(settings: Record<string, unknown>) {
  const answer = await transports(harness)[0].request("POST", "/v1/scheduled-posts", {
    key: harness.world.keys.write,
    headers: { "Idempotency-Key": `follow-${randomBytes(6).toString("hex")}` },
    body: { text: `Follow-ups ${randomBytes(4).toString("hex")}`, scheduled_for: "now", ...settings },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  assert.equal(answer.body.data.status, "sent");
  return answer.body.data;
}

/** The post's follow-up jobs by action, with their due times. */
async function followUps(postId: string) {
  const rows = await harness.services.sql<{ action: string; run_at: Date; status: string }[]>`
    select payload->>'action' as action, run_at, status from jobs
     where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${postId} order by id`;
  return rows;
}

/** Makes the post's follow-up jobs due and runs them (twice: a second run must change nothing). */
async function runDue(postId: string) {
  const { sql } = harness.services;
  const handlers = jobHandlers({ sql, clock: harness.services.clock, network: harness.services.network });
  await sql`update jobs set run_at = now() - interval '1 second' where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${postId} and status = 'queued'`;
  const first = await runJobsOnce({ sql, handlers: { [FOLLOW_UP_JOB_KIND]: handlers[FOLLOW_UP_JOB_KIND] }, runnerId: "follow-up-test" });
  assert.equal(first.failed, 0);
}

const reposted = async (postId: string) => (await harness.services.network.reposters(postId)).items.some((user) => user.id === harness.world.accounts.main);

test("auto_retweet reposts after_hours after sending and undoes it remove_after_hours later, once", async () => {
  const post = await sendNow({ auto_retweet: { after_hours: 2, remove_after_hours: 3 } });
  const [armed] = await followUps(post.id);
  assert.equal(armed.action, "repost");
  assert.equal(armed.run_at.getTime(), new Date(post.posted_at).getTime() + 2 * 3_600_000);
  assert.equal(await reposted(post.x_post_id), false);
  await runDue(post.id);
  assert.equal(await reposted(post.x_post_id), true);
  const undo = (await followUps(post.id)).find((job) => job.action === "undo_repost");
  assert.ok(undo, "the undo is armed after the repost");
  await runDue(post.id);
  assert.equal(await reposted(post.x_post_id), false);
  const [row] = await harness.services.sql<{ auto_retweeted_at: Date | null; auto_retweet_removed_at: Date | null }[]>`
    select auto_retweeted_at, auto_retweet_removed_at from scheduled_posts where id = ${post.id}`;
  assert.ok(row.auto_retweeted_at && row.auto_retweet_removed_at);
  // Running the repost job again (a retry) repeats nothing.
  await harness.services
    .sql`update jobs set status = 'queued', finished_at = null where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${post.id} and payload->>'action' = 'repost'`;
  await runDue(post.id);
  assert.equal(await reposted(post.x_post_id), false);
});

test("auto_delete deletes a post under its view threshold and keeps one above it", async () => {
  const quiet = await sendNow({ auto_delete: { after_hours: 1, threshold: 1_000_000_000 } });
  const popular = await sendNow({ auto_delete: { after_hours: 1, threshold: 0 } });
  await runDue(quiet.id);
  await runDue(popular.id);
  await assert.rejects(harness.services.network.postById(quiet.x_post_id), NetworkNotFoundError);
  assert.equal((await harness.services.network.postById(popular.x_post_id)).id, popular.x_post_id);
  const rows = await harness.services.sql<{ id: number; auto_deleted_at: Date | null }[]>`
    select id, auto_deleted_at from scheduled_posts where id in (${quiet.id}, ${popular.id}) order by id`;
  assert.ok(rows.find((row) => String(row.id) === quiet.id)!.auto_deleted_at);
  assert.equal(rows.find((row) => String(row.id) === popular.id)!.auto_deleted_at, null);
});

test("a post without follow-up settings arms nothing", async () => {
  const post = await sendNow({});
  assert.equal((await followUps(post.id)).length, 0);
});
