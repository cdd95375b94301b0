/**
 * Media on X (docs/x.md "Media on X"): the real publisher with the X API client against the
 * fake X server (test/support/fake_x_api/x_media_routes.ts) on loopback. Each file of a part
 * is read from the media store, uploaded the chunked way (initialize, append, finalize, STATUS
 * while X processes a GIF), its alt text sent through `/2/media/metadata`, and attached by its
 * X media id; the id is kept, so a retry does not upload again, and an expired one is uploaded
 * again.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { startHarness, type Harness } from "./support/harness.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import type { SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import type { Clock } from "../core/clock.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { publishScheduledPost, type PublishDeps } from "../core/scheduling/publish_post.ts";
import { schedulePublication } from "../core/scheduling/schedule_publication.ts";
import { insertPost, type StoredPart } from "../core/scheduling/scheduled_posts_queries.ts";
import { GIF_1X1, PNG_1X1, uploadMedia } from "./support/media_bytes.ts";

/** How long the fake's media ids last here (seconds). */
const MEDIA_LIFE_SECONDS = 600;

describe("media on X", () => {
  let harness: Harness;
  let fake: FakeXServer;
  let network: SocialNetwork;
  let deps: PublishDeps;
  let account: string;
  // The publisher's and X's clock: the harness's, moved ahead by `offset` to let media ids expire.
  let offset = 0;
  let clock: Clock;

  before(async () => {
    harness = await startHarness();
    account = harness.world.accounts.main;
    clock = { now: () => harness.services.clock.now() + offset };
    const token = "user-token-main";
    // X is the harness's own simulated world, so X's users are the demo world's people.
    fake = await startFakeXServer({
      network: harness.services.network as SimulatedNetwork,
      clock,
      userTokens: { [token]: account },
      mediaExpiresAfterSecs: MEDIA_LIFE_SECONDS,
    });
    network = createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, clock, userToken: (id) => (id === account ? token : undefined) });
    deps = { sql: harness.services.sql, network, clock, media: harness.services.media };
  });
  after(async () => {
    await fake?.close();
    await harness?.close();
  });

  /** A due scheduled post of `parts`. */
  async function schedulePost(parts: StoredPart[]): Promise<{ postId: number; version: number }> {
    const { sql } = harness.services;
    return sql.begin(async (tx) => {
      const now = new Date(clock.now());
      const postId = await insertPost(tx, account, { status: "scheduled", scheduled_for: new Date(clock.now() - 1000), parts }, now);
      await schedulePublication(tx, [postId]);
      const [{ publish_version }] = await tx<{ publish_version: number }[]>`select publish_version from scheduled_posts where id = ${postId}`;
      return { postId, version: publish_version };
    });
  }

  const upload = (bytes: Buffer, type: string) => uploadMedia(harness, 0, harness.world.keys.write, bytes, type);
  const text = (label: string) => `${label} ${randomBytes(4).toString("hex")}`;
  const tweetsOf = (prefix: string) =>
    fake.requests.filter((request) => request.method === "POST" && request.pathname === "/2/tweets" && String(request.body?.text).startsWith(prefix));
  const postRow = async (postId: number) => {
    const [row] = await harness.services.sql<{ status: string; error: string | null }[]>`select status, error from scheduled_posts where id = ${postId}`;
    return row;
  };

  test("a thread with an image and a GIF publishes on X with the X media ids and alt text, the GIF after X processed it", async () => {
    const image = await upload(PNG_1X1, "image/png");
    const gif = await upload(GIF_1X1, "image/gif");
    const label = text("Launch notes");
    const uploadsBefore = fake.media.uploads;
    const { postId, version } = await schedulePost([
      { text: label, media: [{ object_key: image, alt_text: "A one-pixel chart" }] },
      { text: `${label}, part two`, media: [{ object_key: gif, alt_text: null }] },
    ]);
    const result = await publishScheduledPost(deps, { postId, version });
    assert.equal(result.outcome, "sent", JSON.stringify(result));
    assert.equal(fake.media.uploads, uploadsBefore + 2, "each file uploaded once");

    const tweets = tweetsOf(label);
    assert.equal(tweets.length, 2);
    const [first, second] = tweets.map((tweet) => fake.media.items.get(tweet.body.media?.media_ids?.[0]));
    assert.ok(first && second, "each part attached an X media id the upload answered");
    assert.equal(first.category, "tweet_image");
    assert.equal(first.mediaType, "image/png");
    assert.equal(first.altText, "A one-pixel chart");
    assert.deepEqual(Buffer.concat([...first.segments.values()]), PNG_1X1, "the stored bytes went up");
    assert.equal(second.category, "tweet_gif");
    assert.equal(second.altText, undefined, "no alt text, no metadata call");
    assert.equal(second.state, "succeeded");
    // The GIF was polled until X finished processing it, then posted.
    const statuses = fake.requests.filter((request) => request.pathname === "/2/media/upload" && request.query.get("media_id") === second.id);
    assert.equal(statuses.length, 2, "pending -> in_progress -> succeeded");
    assert.equal(statuses[0].query.get("command"), "STATUS");
    assert.ok(statuses[1].at <= tweets[1].at);
    assert.ok(
      !fake.requests.some((request) => request.pathname === "/2/media/upload" && request.query.get("media_id") === first.id),
      "an image needs no STATUS",
    );

    // The posts on X carry the media.
    const [onX] = await fake.network.postsByIds([(result as { xPostIds: string[] }).xPostIds[0]]);
    assert.equal(onX.media.length, 1);
  });

  test("a retry after a failure between upload and post attaches the same media id without uploading again", async () => {
    const image = await upload(PNG_1X1, "image/png");
    const label = text("Retry notes");
    const { postId, version } = await schedulePost([{ text: label, media: [{ object_key: image, alt_text: "Dot" }] }]);
    const uploadsBefore = fake.media.uploads;
    fake.script({ path: "/2/tweets", kind: "status", status: 503, body: { title: "Service Unavailable", type: "about:blank", status: 503 } });
    await assert.rejects(publishScheduledPost(deps, { postId, version }));
    assert.equal(fake.media.uploads, uploadsBefore + 1);
    assert.equal((await postRow(postId)).status, "scheduled");

    const result = await publishScheduledPost(deps, { postId, version });
    assert.equal(result.outcome, "sent", JSON.stringify(result));
    assert.equal(fake.media.uploads, uploadsBefore + 1, "not uploaded again");
    const tweets = tweetsOf(label);
    assert.equal(tweets.length, 2, "the refused post and the retry");
    assert.deepEqual(tweets[1].body.media.media_ids, tweets[0].body.media.media_ids);
  });

  test("an expired media id is uploaded again", async () => {
    const image = await upload(PNG_1X1, "image/png");
    const label = text("Expiry notes");
    const { postId, version } = await schedulePost([{ text: label, media: [{ object_key: image, alt_text: null }] }]);
    const uploadsBefore = fake.media.uploads;
    fake.script({ path: "/2/tweets", kind: "status", status: 503 });
    await assert.rejects(publishScheduledPost(deps, { postId, version }));
    assert.equal(fake.media.uploads, uploadsBefore + 1);

    offset += (MEDIA_LIFE_SECONDS + 60) * 1000;
    const result = await publishScheduledPost(deps, { postId, version });
    assert.equal(result.outcome, "sent", JSON.stringify(result));
    assert.equal(fake.media.uploads, uploadsBefore + 2, "uploaded again");
    const tweets = tweetsOf(label);
    assert.notDeepEqual(tweets[1].body.media.media_ids, tweets[0].body.media.media_ids);
    assert.equal(fake.media.refusal(tweets[0].body.media.media_ids[0], account), `Media id ${tweets[0].body.media.media_ids[0]} has expired`);
  });

  test("X refusing an upload leaves the post error with X's reason", async () => {
    const image = await upload(PNG_1X1, "image/png");
    const label = text("Refused notes");
    const { postId, version } = await schedulePost([{ text: label, media: [{ object_key: image, alt_text: null }] }]);
    fake.script({
      path: "/2/media/upload/initialize",
      kind: "status",
      status: 400,
      body: {
        errors: [{ parameters: { total_bytes: ["70"] }, message: "The media is too large" }],
        title: "Invalid Request",
        detail: "One or more parameters to your request was invalid.",
        type: "https://api.twitter.com/2/problems/invalid-request",
      },
    });
    const result = await publishScheduledPost(deps, { postId, version });
    assert.equal(result.outcome, "failed", JSON.stringify(result));
    const row = await postRow(postId);
    assert.equal(row.status, "error");
    assert.match(row.error ?? "", /^X refused the post: .*media is too large/);
    assert.equal(tweetsOf(label).length, 0, "nothing was posted");
  });

  test("a GIF X fails to process leaves the post error", async () => {
    const gif = await upload(GIF_1X1, "image/gif");
    const label = text("Broken GIF");
    const { postId, version } = await schedulePost([{ text: label, media: [{ object_key: gif, alt_text: null }] }]);
    fake.script({ path: "/2/media/upload", kind: "status", status: 200, body: { data: { id: "1880000000000000999", processing_info: { state: "failed" } } } });
    const result = await publishScheduledPost(deps, { postId, version });
    assert.equal(result.outcome, "failed", JSON.stringify(result));
    assert.equal((await postRow(postId)).error, 'X refused the post: X could not process media "1880000000000000999"');
    assert.equal(tweetsOf(label).length, 0);
  });

  test("X refuses a post with media ids it does not know or has not finished", async () => {
    const post = (mediaId: string) =>
      fetch(`${fake.url}/2/tweets`, {
        method: "POST",
        headers: { Authorization: "Bearer user-token-main", "Content-Type": "application/json" },
        body: JSON.stringify({ text: text("Bare media"), media: { media_ids: [mediaId] } }),
      });
    const unknown = await post("1999999999999999999");
    assert.equal(unknown.status, 400);
    const body = await unknown.json();
    assert.equal(body.title, "Invalid Request");
    assert.match(body.errors[0].message, /is not known/);
    const started = await fetch(`${fake.url}/2/media/upload/initialize`, {
      method: "POST",
      headers: { Authorization: "Bearer user-token-main", "Content-Type": "application/json" },
      body: JSON.stringify({ media_type: "image/png", total_bytes: PNG_1X1.length, media_category: "tweet_image" }),
    });
    assert.equal(started.status, 200);
    const { data } = await started.json();
    assert.equal(data.expires_after_secs, MEDIA_LIFE_SECONDS);
    const unfinished = await post(data.id);
    assert.equal(unfinished.status, 400);
    assert.match((await unfinished.json()).errors[0].message, /is not ready/);
  });
});
