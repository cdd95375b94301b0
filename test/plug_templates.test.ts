/**
 * Plug templates and `auto_plug` (supplement: Scheduling, `auto_plug`: "`{ template_id,
 * threshold (likes, required) }` or `null`; unknown template: `unknown_plug_template`";
 * section 5: GET /v1/plug-templates, items `id`, `text`, `has_media`): the workspace's
 * templates are listed, a post stores and shows its `auto_plug`, a template outside the
 * workspace is refused, and once the first part has `threshold` likes the account replies
 * to the thread's last part with the template, exactly once.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { jobHandlers } from "../jobs/task_list.ts";
import { runJobsOnce } from "../core/jobs/job_runner.ts";
import { ensureDemoPlugTemplates } from "../core/demo/demo_plug_templates.ts";
import { createPlugTemplate } from "../core/plug_templates/plug_templates.ts";
import { FOLLOW_UP_JOB_KIND, runFollowUp } from "../core/scheduling/post_follow_ups.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { parseArgs } from "../adapters/cli/args.ts";
import { createPlugTemplateCommand } from "../adapters/cli/plug_templates_command.ts";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";

let harness: Harness;
/** The demo template of A's workspace, one with media, and one of C's (another workspace). */
let ids: { demo: string; withMedia: string; foreign: string };
let demoText: string;

before(async () => {
  harness = await startHarness();
  const { sql } = harness.services;
  const [demo] = await ensureDemoPlugTemplates(harness.services, harness.world.accounts.main);
  // A second run finds the same template rather than adding one.
  assert.deepEqual(await ensureDemoPlugTemplates(harness.services, harness.world.accounts.main), [demo]);
  const [row] = await sql<{ text: string }[]>`select text from plug_templates where id = ${demo}`;
  demoText = row.text;
  const withMedia = await createPlugTemplate(sql, harness.world.accounts.main, { text: "Plug with an image", mediaObjectKey: "plug-image-key" });
  const foreign = await createPlugTemplate(sql, harness.world.accounts.other_user, { text: "Cy's plug" });
  ids = { demo, withMedia: withMedia.id, foreign: foreign.id };
});
after(() => harness.close());

describeMatrix(({ index, name, transport }) => {
  describe(`plug templates over ${name}`, () => {
    const call = (method: string, path: string, body?: unknown, key = harness.world.keys.write) => transport(harness).request(method, path, { key, body });
    const draft = (extra: Record<string, unknown>) =>
      call("POST", "/v1/scheduled-posts", { text: `Plug draft ${index} ${randomBytes(3).toString("hex")}`, ...extra });

    test("GET /v1/plug-templates lists the workspace's templates with id, text and has_media", async () => {
      const answer = await call("GET", "/v1/plug-templates");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.data, [
        { id: ids.demo, text: demoText, has_media: false },
        { id: ids.withMedia, text: "Plug with an image", has_media: true },
      ]);
      // Workspace-wide: the linked account lists the same templates; another user's stay out.
      const linked = await call("GET", `/v1/plug-templates?account_id=${harness.world.accounts.linked}`);
      assert.equal(linked.status, 200);
      assert.deepEqual(
        linked.body.data.map((item: { id: string }) => item.id),
        [ids.demo, ids.withMedia],
      );
      const foreign = await call("GET", "/v1/plug-templates", undefined, harness.world.keys.other_user);
      assert.deepEqual(
        foreign.body.data.map((item: { id: string }) => item.id),
        [ids.foreign],
      );
    });

    test("auto_plug is stored and shown; PATCH without it keeps it, null removes it", async () => {
      const created = await draft({ auto_plug: { template_id: ids.demo, threshold: 25 } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.data.auto_plug, { template_id: ids.demo, threshold: 25 });
      const read = await call("GET", `/v1/scheduled-posts/${created.body.data.id}`);
      assert.deepEqual(read.body.data.auto_plug, { template_id: ids.demo, threshold: 25 });
      const kept = await call("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, { title: "kept" });
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      assert.deepEqual(kept.body.data.auto_plug, { template_id: ids.demo, threshold: 25 });
      const changed = await call("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, { auto_plug: { template_id: ids.withMedia, threshold: 1 } });
      assert.deepEqual(changed.body.data.auto_plug, { template_id: ids.withMedia, threshold: 1 });
      const cleared = await call("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, { auto_plug: null });
      assert.equal(cleared.body.data.auto_plug, null);
      const plain = await draft({});
      assert.equal(plain.body.data.auto_plug, null);
    });

    test("an unknown or another workspace's template answers 400 unknown_plug_template naming it, on create and patch", async () => {
      for (const templateId of ["999999", "t1", ids.foreign]) {
        const answer = await draft({ auto_plug: { template_id: templateId, threshold: 10 } });
        assert.equal(answer.status, 400, templateId);
        assert.equal(answer.body.error.code, "unknown_plug_template", templateId);
        assert.match(answer.body.error.message, new RegExp(`"${templateId}"`));
      }
      const created = await draft({});
      const patched = await call("PATCH", `/v1/scheduled-posts/${created.body.data.id}`, { auto_plug: { template_id: ids.foreign, threshold: 10 } });
      assert.equal(patched.status, 400);
      assert.equal(patched.body.error.code, "unknown_plug_template");
      assert.equal((await call("GET", `/v1/scheduled-posts/${created.body.data.id}`)).body.data.auto_plug, null);
    });

    test("a threshold outside 1..1000000 answers 400 invalid_parameter naming it", async () => {
      for (const threshold of [0, 1_000_001, 2.5]) {
        const answer = await draft({ auto_plug: { template_id: ids.demo, threshold } });
        assert.equal(answer.status, 400, String(threshold));
        assert.equal(answer.body.error.code, "invalid_parameter");
        assert.match(answer.body.error.message, /threshold/);
      }
    });
  });
});

describe("the auto_plug follow-up", () => {
  /** Publishes a thread now with `auto_plug`; answers the sent post. */
  async function sendNow(threshold: number) {
    const tag = randomBytes(4).toString("hex");
    const answer = await transports(harness)[0].request("POST", "/v1/scheduled-posts", {
      key: harness.world.keys.write,
      headers: { "Idempotency-Key": `plug-${tag}` },
      body: {
        parts: [{ text: `Plug thread ${tag} (1/2)` }, { text: `Plug thread ${tag} (2/2)` }],
        scheduled_for: "now",
        auto_plug: { template_id: ids.demo, threshold },
      },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.data.status, "sent");
    return answer.body.data;
  }

  const plugJobs = (postId: string) => harness.services.sql<{ unique_key: string; run_at: Date; status: string; check: number | null }[]>`
    select unique_key, run_at, status, (payload->>'check')::int as check from jobs
     where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${postId} and payload->>'action' = 'auto_plug' order by id`;

  const plugged = async (postId: string) =>
    (
      await harness.services.sql<{ auto_plugged_at: Date | null; auto_plug_post_id: string | null }[]>`
      select auto_plugged_at, auto_plug_post_id from scheduled_posts where id = ${postId}`
    )[0];

  /** Makes the post's queued follow-ups due and runs them through `network`. */
  async function runDue(postId: string, network: SocialNetwork = harness.services.network) {
    const { sql, clock } = harness.services;
    const handlers = jobHandlers({ sql, clock, network });
    await sql`update jobs set run_at = now() - interval '1 second' where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${postId} and status = 'queued'`;
    const result = await runJobsOnce({ sql, handlers: { [FOLLOW_UP_JOB_KIND]: handlers[FOLLOW_UP_JOB_KIND] }, runnerId: "plug-test" });
    assert.equal(result.failed + result.retried, 0);
    assert.ok(result.completed >= 1);
  }

  /** A network that is the harness's in every way but reports `likes` on every post it reads. */
  function networkWithLikes(likes: number): SocialNetwork {
    const real = harness.services.network;
    return new Proxy(real, {
      get(target, property) {
        if (property === "postById")
          return async (id: string) => {
            const post = await target.postById(id);
            return { ...post, metrics: { ...post.metrics, likes } };
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  test("below the threshold it checks again every hour, then gives up 24 hours after sending", async () => {
    const post = await sendNow(1_000_000);
    const sentAt = new Date(post.posted_at).getTime();
    const [armed] = await plugJobs(post.id);
    assert.equal(armed.unique_key, `follow-up:${post.id}:auto_plug`);
    assert.equal(armed.run_at.getTime(), sentAt + 3_600_000, "the first check is an hour after sending");
    await runDue(post.id, networkWithLikes(999_999));
    const [, second] = await plugJobs(post.id);
    assert.equal(second.unique_key, `follow-up:${post.id}:auto_plug:2`);
    assert.equal(second.check, 2);
    assert.equal(second.run_at.getTime(), sentAt + 2 * 3_600_000);
    assert.equal((await plugged(post.id)).auto_plugged_at, null);
    // The check at hour 24 is the last: nothing comes after it.
    const { sql, clock, network } = harness.services;
    await runFollowUp({ sql, clock, network }, { postId: Number(post.id), action: "auto_plug", check: 24 });
    assert.equal(
      (await plugJobs(post.id)).some((job) => job.unique_key.endsWith(":auto_plug:25")),
      false,
    );
    assert.equal((await plugged(post.id)).auto_plugged_at, null);
  });

  test("at the threshold it replies to the last part with the template once, even when retried", async () => {
    const post = await sendNow(10);
    const network = networkWithLikes(10);
    await runDue(post.id, network);
    const first = await plugged(post.id);
    assert.ok(first.auto_plugged_at && first.auto_plug_post_id);
    const reply = await harness.services.network.postById(first.auto_plug_post_id);
    assert.equal(reply.text, demoText);
    assert.equal(reply.replyToId, post.x_post_ids[1], "the plug answers the thread's last part");
    assert.equal(reply.authorId, post.account_id);
    assert.equal((await plugJobs(post.id)).length, 1, "no re-check once plugged");

    // A retry of the job changes nothing.
    await harness.services.sql`update jobs set status = 'queued', finished_at = null where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${post.id}`;
    await runDue(post.id, network);
    assert.deepEqual(await plugged(post.id), first);

    // An attempt that replied and died before recording it: the retry finds the reply by its
    // token instead of posting a second one.
    await harness.services.sql`update scheduled_posts set auto_plugged_at = null, auto_plug_post_id = null where id = ${post.id}`;
    await harness.services.sql`update jobs set status = 'queued', finished_at = null where kind = ${FOLLOW_UP_JOB_KIND} and payload->>'postId' = ${post.id}`;
    await runDue(post.id, network);
    assert.equal((await plugged(post.id)).auto_plug_post_id, first.auto_plug_post_id);
    const replies = await harness.services.network.replies(post.x_post_ids[1]);
    assert.equal(replies.items.filter((item) => item.authorId === post.account_id && item.text === demoText).length, 1);
  });
});

test("`plug-templates create` adds a template to the workspace of the account named, linked or main", async () => {
  const linked = harness.world.accounts.linked_shared;
  const made = await createPlugTemplateCommand(harness.services, parseArgs(["plug-templates", "create", "--account", linked, "--text", "Dana's plug"]));
  assert.deepEqual(made.data, { id: made.data.id, text: "Dana's plug", has_media: false });
  const [row] = await harness.services.sql<{ workspace_id: string }[]>`select workspace_id from plug_templates where id = ${made.data.id}`;
  assert.equal(row.workspace_id, harness.world.accounts.shared, "a linked account's template belongs to its main account's workspace");
  await assert.rejects(createPlugTemplateCommand(harness.services, parseArgs(["plug-templates", "create", "--account", linked, "--text", " "])), /"text"/);
  await assert.rejects(
    createPlugTemplateCommand(harness.services, parseArgs(["plug-templates", "create", "--account", "42", "--text", "x"])),
    /Cannot find account "42"/,
  );
});
