/**
 * Media on X (docs/x.md "Media on X"): the X adapter uploads files through X API v2's media
 * upload (initialize, append, finalize, STATUS while a GIF is processed, alt text through
 * metadata) against the fake X server on loopback, and `POST /2/tweets` attaches the ids.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Sql } from "../core/db/sql.ts";
import { migrate } from "../adapters/postgres/migrate.ts";
import { migrateSimulatedNetwork } from "../adapters/x/simulated/simulated_migrations.ts";
import { NetworkRejectedError } from "../core/network/network_errors.ts";
import type { SocialNetwork } from "../core/network/social_network.ts";
import { createSimulatedNetwork, type SimulatedNetwork } from "../adapters/x/simulated/simulated_network.ts";
import { createXApiNetwork } from "../adapters/x/x_api/x_api_network.ts";
import { X_MEDIA_CHUNK_BYTES } from "../adapters/x/x_api/x_media_upload.ts";
import { FAKE_MEDIA_EXPIRES_AFTER_SECS } from "./support/fake_x_api/x_media_routes.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";

const START = "2026-11-21T12:00:00Z";
const ADA_ID = "1600000000000000001";
const ADA_TOKEN = "user-token-ada";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
// Larger than one chunk, so the upload appends two segments.
const GIF = new Uint8Array(X_MEDIA_CHUNK_BYTES + 10).fill(0x47);

let database: TestDatabase;
let sql: Sql;
let clock: ReturnType<typeof manualClock>;
let sim: SimulatedNetwork;
let fake: FakeXServer;
let x: SocialNetwork;
const waits: number[] = [];

before(async () => {
  database = await createTestDatabase();
  ({ sql } = await database.open({ poolSize: database.mode === "embedded" ? 1 : 4 }));
  await migrate(sql);
  await migrateSimulatedNetwork(sql);
  clock = manualClock(START);
  sim = createSimulatedNetwork({ sql, clock, seed: 7, searchWindowDays: 7 });
  fake = await startFakeXServer({ network: sim, clock, userTokens: { [ADA_TOKEN]: ADA_ID }, rateWindows: false });
  // Waiting between STATUS checks moves the fake's clock, so processing advances without real sleeps.
  const sleep = async (ms: number) => {
    waits.push(ms);
    clock.advance(ms);
  };
  x = createXApiNetwork({ baseUrl: fake.url, bearerToken: fake.bearerToken, clock, userToken: ADA_TOKEN, timeoutMs: 5000, sleep });
});
after(async () => {
  await fake.close();
  await database.drop();
});

describe("X media upload (adapter)", () => {
  test("uploadMedia() uploads an image at once and a GIF after X's processing, with alt text", async () => {
    const before = fake.media.initialized;
    waits.length = 0;
    const image = await x.uploadMedia!({ authorId: ADA_ID, bytes: PNG, mimeType: "image/png", altText: "A chart" });
    assert.equal(waits.length, 0, "an image needs no STATUS checks");
    const gif = await x.uploadMedia!({ authorId: ADA_ID, bytes: GIF, mimeType: "image/gif", altText: "A loop" });
    assert.ok(waits.length >= 2, `the GIF waited through pending and in_progress (${waits.join(", ")})`);
    assert.equal(fake.media.initialized, before + 2);
    const gifUpload = fake.media.uploads.get(gif.mediaId)!;
    assert.equal(gifUpload.category, "tweet_gif");
    assert.equal(gifUpload.segments.size, 2);
    assert.equal(gifUpload.altText, "A loop");
    assert.equal(fake.media.uploads.get(image.mediaId)?.altText, "A chart");
    assert.equal(fake.media.uploads.get(image.mediaId)?.category, "tweet_image");
    assert.ok(image.expiresAt !== null && Date.parse(image.expiresAt) > clock.now());
    const post = await x.publishPost({ authorId: ADA_ID, text: "Chart and loop", mediaKeys: [image.mediaId, gif.mediaId] });
    assert.deepEqual(post.media.map((m) => m.key).length, 2);
  });

  test("POST /2/tweets refuses a media id past its expires_after_secs", async () => {
    const image = await x.uploadMedia!({ authorId: ADA_ID, bytes: PNG, mimeType: "image/png" });
    clock.advance(FAKE_MEDIA_EXPIRES_AFTER_SECS * 1000);
    await assert.rejects(x.publishPost({ authorId: ADA_ID, text: "Too late", mediaKeys: [image.mediaId] }), NetworkRejectedError);
  });

  test("uploadMedia() reports X refusing the upload", async () => {
    fake.script({
      kind: "status",
      path: "/2/media/upload/initialize",
      status: 400,
      body: { title: "Invalid Request", detail: "Bad media", type: "https://api.twitter.com/2/problems/invalid-request", status: 400 },
    });
    await assert.rejects(x.uploadMedia!({ authorId: ADA_ID, bytes: PNG, mimeType: "image/png" }), (error: Error) => error.name.startsWith("Network"));
  });
});
