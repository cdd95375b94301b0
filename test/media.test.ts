/**
 * Media with the local store (spec: POST /v1/media; Errors: invalid_media, media_not_uploaded,
 * unsupported_media_type, media_too_large, media_quota_exceeded, media_not_configured;
 * Limits 10; Constants: upload valid 20 minutes, unattached uploads deleted after 24 hours;
 * supplement: Media).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { expectError } from "./support/expect_error.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { manualClock } from "./support/manual_clock.ts";
import { createKey } from "../core/auth/keys.ts";
import { checkAttachableMedia, markMediaAttached } from "../core/media/attachable_media.ts";
import { purgeUnattachedMedia } from "../core/media/media_jobs.ts";
import { periodicJobs } from "../jobs/task_list.ts";
import { enqueueJob } from "../core/jobs/jobs_queries.ts";
import { startJobs } from "../adapters/runtime/start_jobs.ts";
import { pollUntil } from "./support/child_node.ts";
import { GIF_1X1, JPEG_HEAD, PNG_1X1, WEBP_1X1, rejectsWithCode } from "./support/media_bytes.ts";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [PNG, GIF, WEBP, JPEG] = [PNG_1X1, GIF_1X1, WEBP_1X1, JPEG_HEAD];
const rejects = rejectsWithCode;
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42", "latin1"), Buffer.alloc(60)]);
const MB = 1024 * 1024;

interface Raw {
  status: number;
  headers: Headers;
  body: any;
  bytes: Buffer;
}

/** Sends a raw request (bytes, no Authorization) through transport `index`, to a URL the server answered. */
async function rawRequest(
  harness: Harness,
  index: number,
  method: string,
  url: string,
  init: { body?: BodyInit | null; headers?: Record<string, string>; duplex?: "half" } = {},
): Promise<Raw> {
  const parsed = new URL(url, "http://localhost");
  const target = index === 0 ? `http://in-process.test${parsed.pathname}${parsed.search}` : new URL(url, harness.baseUrl).toString();
  const request = new Request(target, { method, ...init } as RequestInit);
  const response = index === 0 ? await harness.threadline.fetch(request) : await fetch(request);
  const bytes = Buffer.from(await response.arrayBuffer());
  let body: unknown = null;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    // An image.
  }
  return { status: response.status, headers: response.headers, body, bytes };
}

describe("media with the local store", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(() => harness.close());

  describeMatrix(({ index, name, transport }) => {
    describe(`over ${name}`, () => {
      const post = (body: unknown, key = harness.world.keys.write) => transport(harness).request("POST", "/v1/media", { key, body });
      const announce = async (bytes: Buffer, fileType: string, size = bytes.length) => {
        const answer = await post({ filename: `pic.${fileType.split("/")[1]}`, file_type: fileType, size });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return answer.body.data as { object_key: string; upload_url: string; url: string; expires_at: string };
      };
      const put = (url: string, bytes: Uint8Array | ReadableStream<Uint8Array>, contentType?: string, extra: Record<string, unknown> = {}) =>
        rawRequest(harness, index, "PUT", url, { body: bytes as BodyInit, headers: contentType ? { "Content-Type": contentType } : {}, ...extra });

      test("POST /v1/media answers 201 with object_key, an upload_url on this server valid 20 minutes, and url", async () => {
        const before = Date.now();
        const answer = await post({ filename: "chart.png", file_type: "image/png", size: PNG.length });
        assert.equal(answer.status, 201);
        const data = answer.body.data;
        assert.match(data.object_key, /^[A-Za-z0-9_-]{22}\.png$/);
        assert.equal(data.upload_method, "PUT");
        assert.deepEqual(data.upload_headers, { "Content-Type": "image/png" });
        assert.deepEqual([data.filename, data.file_type, data.size, data.account_id], ["chart.png", "image/png", PNG.length, harness.world.accounts.main]);
        const expires = Date.parse(data.expires_at);
        assert.ok(expires >= before + 20 * 60_000 - 1000 && expires <= Date.now() + 20 * 60_000 + 1000, data.expires_at);
        const upload = new URL(data.upload_url);
        assert.equal(upload.pathname, `/v1/media/uploads/${data.object_key}`);
        assert.equal(Number(upload.searchParams.get("expires")), Math.floor(expires / 1000));
        assert.ok(upload.searchParams.get("signature"));
        assert.equal(new URL(data.url).pathname, `/v1/media/uploads/${data.object_key}`);
        // Over HTTP the URLs name the address the client reached (the same server).
        if (index === 1) assert.ok(data.upload_url.startsWith(`${harness.baseUrl}/v1/media/uploads/`), data.upload_url);
        assert.ok(answer.headers.get("X-RateLimit-Limit"));
      });

      test("the full flow: PUT the bytes without auth, then GET url answers them with their type", async () => {
        for (const [bytes, type] of [
          [PNG, "image/png"],
          [JPEG, "image/jpeg"],
          [GIF, "image/gif"],
          [WEBP, "image/webp"],
        ] as const) {
          const data = await announce(bytes, type);
          const before = await rawRequest(harness, index, "GET", data.url);
          expectError(before, 404, "not_found", `${type} before upload`);
          const stored = await put(data.upload_url, bytes, type);
          assert.equal(stored.status, 200, `${type}: ${JSON.stringify(stored.body)}`);
          assert.deepEqual([stored.body.data.object_key, stored.body.data.file_type, stored.body.data.size], [data.object_key, type, bytes.length]);
          const shown = await rawRequest(harness, index, "GET", data.url);
          assert.equal(shown.status, 200);
          assert.equal(shown.headers.get("content-type"), type);
          assert.equal(shown.headers.get("x-content-type-options"), "nosniff");
          assert.deepEqual(shown.bytes, bytes);
        }
      });

      test("a changed or missing signature, another key's URL or an expired URL answers 401 unauthorized and stores nothing", async () => {
        const data = await announce(PNG, "image/png");
        const url = new URL(data.upload_url, "http://localhost");
        const signature = url.searchParams.get("signature")!;
        const variants: [string, URL][] = [];
        const tampered = new URL(url);
        tampered.searchParams.set("signature", (signature[0] === "A" ? "B" : "A") + signature.slice(1));
        variants.push(["tampered signature", tampered]);
        const missing = new URL(url);
        missing.searchParams.delete("signature");
        variants.push(["no signature", missing]);
        const later = new URL(url);
        later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
        variants.push(["a later expiry", later]);
        const other = await announce(PNG, "image/png");
        const swapped = new URL(other.upload_url, "http://localhost");
        swapped.searchParams.set("signature", signature);
        variants.push(["another key with this signature", swapped]);
        for (const [what, target] of variants) {
          const answer = await put(target.toString(), PNG, "image/png");
          expectError(answer, 401, "unauthorized", what);
        }
        expectError(await rawRequest(harness, index, "GET", data.url), 404, "not_found");
        expectError(await rawRequest(harness, index, "GET", other.url), 404, "not_found");
        const unknown = new URL(url);
        unknown.pathname = "/v1/media/uploads/AAAAAAAAAAAAAAAAAAAAAA.png";
        expectError(await put(unknown.toString(), PNG, "image/png"), 400, "invalid_media", "unknown key");
      });

      test("bytes of another real type than declared answer 400 unsupported_media_type and nothing is stored", async () => {
        const data = await announce(PNG, "image/png", JPEG.length);
        const answer = await put(data.upload_url, JPEG, "image/png");
        expectError(answer, 400, "unsupported_media_type");
        assert.match(answer.body.error.message, /JPG.*"image\/png"/);
        expectError(await rawRequest(harness, index, "GET", data.url), 404, "not_found");
        const video = await announce(PNG, "image/png", MP4.length);
        expectError(await put(video.upload_url, MP4, "image/png"), 400, "unsupported_media_type", "mp4 bytes");
        const header = await announce(PNG, "image/png");
        const wrongHeader = await put(header.upload_url, PNG, "image/jpeg");
        expectError(wrongHeader, 400, "unsupported_media_type", "Content-Type differs");
        assert.match(wrongHeader.body.error.message, /Content-Type "image\/jpeg"/);
        // The refused URL still takes the right bytes afterwards.
        assert.equal((await put(header.upload_url, PNG, "image/png")).status, 200);
      });

      test("more bytes than declared answer 400 media_too_large, an empty body 400 media_not_uploaded, and fewer bytes 400 invalid_parameter", async () => {
        const small = await announce(PNG, "image/png", 40);
        const longer = Buffer.concat([PNG, Buffer.alloc(100)]);
        expectError(await put(small.upload_url, longer, "image/png"), 400, "media_too_large", "Content-Length over");
        // A streamed body without Content-Length is cut off as soon as it passes the size.
        if (index === 0) {
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new Uint8Array(PNG));
              controller.enqueue(new Uint8Array(100));
              controller.close();
            },
          });
          expectError(await put(small.upload_url, stream, "image/png", { duplex: "half" }), 400, "media_too_large", "streamed");
        }
        expectError(await put(small.upload_url, new Uint8Array(0), "image/png"), 400, "media_not_uploaded", "empty");
        expectError(await put(small.upload_url, PNG.subarray(0, 20), "image/png"), 400, "invalid_parameter", "fewer bytes");
        expectError(await rawRequest(harness, index, "GET", small.url), 404, "not_found");
      });

      test("file types other than JPG, PNG, WEBP and GIF (videos too) answer 400 unsupported_media_type", async () => {
        for (const fileType of ["video/mp4", "video/quicktime", "image/svg+xml", "image/heic", "text/plain", "application/octet-stream"]) {
          const answer = await post({ filename: "clip.bin", file_type: fileType, size: 1000 });
          expectError(answer, 400, "unsupported_media_type", fileType);
          assert.ok(answer.body.error.message.includes(`"${fileType}"`));
        }
        const upper = await post({ filename: "a.PNG", file_type: "IMAGE/PNG", size: 10 });
        assert.equal(upper.status, 201);
        assert.equal(upper.body.data.file_type, "image/png");
      });

      test("sizes over 5MB (images) or 15MB (GIFs) answer 400 media_too_large; the bounds themselves are accepted", async () => {
        for (const type of ["image/jpeg", "image/png", "image/webp"]) {
          assert.equal((await post({ filename: "big", file_type: type, size: 5 * MB })).status, 201, type);
          expectError(await post({ filename: "big", file_type: type, size: 5 * MB + 1 }), 400, "media_too_large", type);
        }
        assert.equal((await post({ filename: "big.gif", file_type: "image/gif", size: 15 * MB })).status, 201);
        expectError(await post({ filename: "big.gif", file_type: "image/gif", size: 15 * MB + 1 }), 400, "media_too_large", "gif");
      });

      test("malformed bodies answer 400 invalid_parameter naming the field", async () => {
        for (const [body, field] of [
          [{ file_type: "image/png", size: 10 }, "filename"],
          [{ filename: "", file_type: "image/png", size: 10 }, "filename"],
          [{ filename: "dir/pic.png", file_type: "image/png", size: 10 }, "filename"],
          [{ filename: "..\\pic.png", file_type: "image/png", size: 10 }, "filename"],
          [{ filename: "pic.png", size: 10 }, "file_type"],
          [{ filename: "pic.png", file_type: "image/png" }, "size"],
          [{ filename: "pic.png", file_type: "image/png", size: 0 }, "size"],
          [{ filename: "pic.png", file_type: "image/png", size: 1.5 }, "size"],
          [{ filename: "pic.png", file_type: "image/png", size: "10" }, "size"],
          [{ filename: "pic.png", file_type: "image/png", size: 10, account_id: "abc" }, "account_id"],
        ] as const) {
          const answer = await post(body);
          expectError(answer, 400, "invalid_parameter", JSON.stringify(body));
          assert.match(answer.body.error.message, new RegExp(`"${field}"`), JSON.stringify(body));
        }
      });

      test("keys and accounts: 401 without a key, 403 insufficient_scope for a read key, 403 writes_main_account_only on a shared account, 404 account_not_found", async () => {
        const body = { filename: "pic.png", file_type: "image/png", size: 10 };
        expectError(await transport(harness).request("POST", "/v1/media", { body }), 401, "unauthorized");
        expectError(await post(body, harness.world.keys.read), 403, "insufficient_scope");
        expectError(await post({ ...body, account_id: harness.world.accounts.shared }), 403, "writes_main_account_only");
        expectError(await post({ ...body, account_id: harness.world.accounts.other_user }), 404, "account_not_found");
        const linked = await post({ ...body, account_id: harness.world.accounts.linked });
        assert.equal(linked.status, 201);
        assert.equal(linked.body.data.account_id, harness.world.accounts.linked);
      });

      test("checkAttachableMedia() answers type and url of uploaded media and refuses unknown, foreign and never-uploaded keys", async () => {
        const { sql, media } = harness.services;
        const workspace = harness.world.accounts.main;
        const uploaded = await announce(GIF, "image/gif");
        assert.equal((await put(uploaded.upload_url, GIF, "image/gif")).status, 200);
        const found = await checkAttachableMedia(sql, media, workspace, [uploaded.object_key], { baseUrl: "https://api.example.test/v1" });
        assert.deepEqual(found.get(uploaded.object_key), { file_type: "image/gif", url: `https://api.example.test/v1/media/uploads/${uploaded.object_key}` });
        // A linked account's upload belongs to the same workspace.
        const linkedAnswer = await post({ filename: "l.png", file_type: "image/png", size: PNG.length, account_id: harness.world.accounts.linked });
        assert.equal((await put(linkedAnswer.body.data.upload_url, PNG, "image/png")).status, 200);
        assert.equal((await checkAttachableMedia(sql, media, workspace, [linkedAnswer.body.data.object_key])).size, 1);

        await rejects(checkAttachableMedia(sql, media, workspace, ["AAAAAAAAAAAAAAAAAAAAAA.png"]), "invalid_media", /"AAAAAAAAAAAAAAAAAAAAAA\.png"/);
        const foreign = await post({ filename: "cy.png", file_type: "image/png", size: PNG.length }, harness.world.keys.other_user);
        assert.equal((await put(foreign.body.data.upload_url, PNG, "image/png")).status, 200);
        await rejects(
          checkAttachableMedia(sql, media, workspace, [uploaded.object_key, foreign.body.data.object_key]),
          "invalid_media",
          new RegExp(foreign.body.data.object_key),
        );
        const never = await announce(PNG, "image/png");
        await rejects(checkAttachableMedia(sql, media, workspace, [never.object_key]), "media_not_uploaded", new RegExp(never.object_key));
        await rejects(checkAttachableMedia(sql, undefined, workspace, [uploaded.object_key]), "media_not_configured");
      });

      test("markMediaAttached() keeps the bytes: the upload URL then refuses new bytes with 400 invalid_media", async () => {
        const data = await announce(PNG, "image/png");
        assert.equal((await put(data.upload_url, PNG, "image/png")).status, 200);
        await markMediaAttached(harness.services.sql, [data.object_key], new Date());
        expectError(await put(data.upload_url, PNG, "image/png"), 400, "invalid_media");
        assert.equal((await rawRequest(harness, index, "GET", data.url)).status, 200);
        await rejects(markMediaAttached(harness.services.sql, ["AAAAAAAAAAAAAAAAAAAAAA.png"], new Date()), "invalid_media");
      });
    });
  });

  test("OpenAPI documents POST /v1/media with 201, its errors and the upload route", () => {
    const operation = (harness.threadline.openapi() as { paths: Record<string, any> }).paths["/v1/media"].post;
    assert.ok(operation.responses["201"]);
    assert.equal(operation.responses["200"], undefined);
    const codes = (status: number): string[] => {
      const schema = operation.responses[status].content["application/json"].schema;
      // 403 and 500 also allow the legacy string body (oneOf).
      return (schema.oneOf?.[0] ?? schema).allOf?.[1].properties.error.properties.code.enum ?? [];
    };
    assert.deepEqual(codes(400).sort(), ["invalid_parameter", "media_too_large", "unsupported_media_type"]);
    assert.ok(codes(403).includes("writes_main_account_only") && codes(403).includes("insufficient_scope"));
    assert.ok(codes(429).includes("media_quota_exceeded"));
    assert.ok(codes(503).includes("media_not_configured"));
    assert.match(operation.description, /PUT \/v1\/media\/uploads\/\{object_key\}/);
  });
});

describe("media quota, expiry and purge (manual clock)", () => {
  const clock = manualClock("2026-11-21T10:00:00Z");
  let harness: Harness;
  let userId: number;
  before(async () => {
    harness = await startHarness({ config: { clock } });
    const [row] = await harness.services.sql<{ user_id: number }[]>`select user_id from accounts where id = ${harness.world.accounts.main}`;
    userId = row.user_id;
  });
  after(() => harness.close());
  const freshKey = async (name: string) => (await createKey(harness.services.sql, { userId, name, scopes: ["read", "write"], prefix: "sxk_" })).key;

  describeMatrix(({ index, name, transport }) => {
    test(`100 accepted uploads per key per UTC day, then 429 media_quota_exceeded until midnight (${name})`, async () => {
      clock.set("2026-11-21T10:00:00Z");
      const key = await freshKey(`media quota ${index}`);
      const post = (body: unknown, as = key) => transport(harness).request("POST", "/v1/media", { key: as, body });
      const body = { filename: "pic.png", file_type: "image/png", size: 100 };
      for (let i = 0; i < 99; i++) assert.equal((await post(body)).status, 201, `upload ${i + 1}`);
      // Refusals are not counted: only accepted uploads use the quota.
      expectError(await post({ ...body, file_type: "video/mp4" }), 400, "unsupported_media_type");
      expectError(await post({ ...body, size: 6 * MB }), 400, "media_too_large");
      assert.equal((await post(body)).status, 201, "upload 100");
      const refused = await post(body);
      expectError(refused, 429, "media_quota_exceeded");
      const resetAt = Date.parse("2026-11-22T00:00:00Z") / 1000;
      assert.equal(refused.body.error.limit, 100);
      assert.equal(refused.body.error.reset_at, resetAt);
      assert.equal(refused.body.error.retry_after, 14 * 3600);
      assert.equal(refused.headers.get("Retry-After"), String(14 * 3600));
      assert.ok(refused.headers.get("X-RateLimit-Limit"));
      // Counted per key (Authentication 9): another key of the same user is unaffected.
      assert.equal((await post(body, harness.world.keys.write)).status, 201);
      clock.set("2026-11-21T23:59:59Z");
      expectError(await post(body), 429, "media_quota_exceeded");
      clock.set("2026-11-22T00:00:00Z");
      assert.equal((await post(body)).status, 201, "a new UTC day");
    });
  });

  test("an upload URL is refused with 401 unauthorized once its 20 minutes are over", async () => {
    clock.set("2026-11-23T08:00:00Z");
    for (const index of [0, 1]) {
      const announced = await transports(harness)[index].request("POST", "/v1/media", {
        key: harness.world.keys.write,
        body: { filename: "p.png", file_type: "image/png", size: PNG.length },
      });
      assert.equal(announced.body.data.expires_at, "2026-11-23T08:20:00.000Z");
      clock.set("2026-11-23T08:20:00Z");
      const late = await rawRequest(harness, index, "PUT", announced.body.data.upload_url, { body: PNG, headers: { "Content-Type": "image/png" } });
      expectError(late, 401, "unauthorized");
      assert.match(late.body.error.message, /expired/);
      clock.set("2026-11-23T08:19:59Z");
      const inTime = await rawRequest(harness, index, "PUT", announced.body.data.upload_url, { body: PNG, headers: { "Content-Type": "image/png" } });
      assert.equal(inTime.status, 200);
      clock.set("2026-11-23T08:00:00Z");
    }
  });

  test("purge_unattached_media deletes only uploads never attached after 24 hours, rows and stored files, and runs hourly", async () => {
    const { sql, media } = harness.services;
    const upload = async (at: string) => {
      clock.set(at);
      const announced = await transports(harness)[0].request("POST", "/v1/media", {
        key: harness.world.keys.write,
        body: { filename: "p.png", file_type: "image/png", size: PNG.length },
      });
      const { object_key, upload_url } = announced.body.data;
      assert.equal((await rawRequest(harness, 0, "PUT", upload_url, { body: PNG, headers: { "Content-Type": "image/png" } })).status, 200);
      return object_key as string;
    };
    const attached = await upload("2026-11-25T09:00:00Z");
    await markMediaAttached(sql, [attached], new Date(clock.now()));
    const stale = await upload("2026-11-25T09:00:00Z");
    clock.set("2026-11-25T09:00:00Z");
    const neverUploaded = (
      await transports(harness)[0].request("POST", "/v1/media", {
        key: harness.world.keys.write,
        body: { filename: "n.png", file_type: "image/png", size: 10 },
      })
    ).body.data.object_key;
    const young = await upload("2026-11-25T10:00:00Z");

    const keys = [attached, stale, neverUploaded, young];
    const remaining = async () =>
      (await sql<{ object_key: string }[]>`select object_key from media_uploads where object_key = any(${keys}::text[])`).map((row) => row.object_key).sort();
    // Earlier tests' uploads (days before) go in this first run; these four are under 24 hours old.
    await purgeUnattachedMedia(sql, media, new Date("2026-11-26T08:59:59Z"));
    assert.deepEqual(await remaining(), [...keys].sort());
    assert.equal(await purgeUnattachedMedia(sql, media, new Date("2026-11-26T09:30:00Z")), 2);
    assert.deepEqual(await remaining(), [attached, young].sort());
    assert.equal(await media!.head(stale, 4), undefined);
    assert.ok(await media!.head(attached, 4));
    assert.ok(await media!.head(young, 4));
    await rejects(checkAttachableMedia(sql, media, harness.world.accounts.main, [stale]), "invalid_media");
    assert.equal(await purgeUnattachedMedia(sql, media, new Date("2026-11-26T09:30:00Z")), 0, "a second run finds nothing");
    assert.ok(periodicJobs.some((job) => job.kind === "purge_unattached_media" && job.everySeconds === 3600));
  });
});

describe("media without a store (MEDIA_STORE=none)", () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness({ config: { mediaStore: "none" } });
  });
  after(() => harness.close());

  describeMatrix(({ index, name, transport }) => {
    test(`POST /v1/media answers 503 media_not_configured (${name})`, async () => {
      assert.equal(harness.services.media, undefined);
      const answer = await transport(harness).request("POST", "/v1/media", {
        key: harness.world.keys.write,
        body: { filename: "p.png", file_type: "image/png", size: 10 },
      });
      expectError(answer, 503, "media_not_configured");
      const put = await rawRequest(harness, index, "PUT", "/v1/media/uploads/AAAAAAAAAAAAAAAAAAAAAA.png?expires=1&signature=x", {
        body: PNG,
        headers: { "Content-Type": "image/png" },
      });
      expectError(put, 503, "media_not_configured");
    });
  });
});

describe("the purge in a bree worker thread opens the media store from its workerData", {
  skip: process.env.DATABASE_URL ? false : "DATABASE_URL not set: worker threads run jobs only on PostgreSQL",
}, () => {
  let harness: Harness;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "threadline-media-test-"));
    harness = await startHarness({ config: { mediaDir: dir, mediaSigningSecret: "worker-test-secret" } });
  });
  after(async () => {
    await harness.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("purge_unattached_media run by the worker deletes the file under MEDIA_DIR and the row", async () => {
    const announced = await transports(harness)[1].request("POST", "/v1/media", {
      key: harness.world.keys.write,
      body: { filename: "p.png", file_type: "image/png", size: PNG.length },
    });
    const { object_key, upload_url } = announced.body.data;
    assert.equal((await rawRequest(harness, 1, "PUT", upload_url, { body: PNG, headers: { "Content-Type": "image/png" } })).status, 200);
    const file = join(dir, object_key.slice(0, 2), object_key);
    assert.ok((await stat(file)).isFile());
    const { sql } = harness.services;
    await sql`update media_uploads set created_at = now() - interval '25 hours' where object_key = ${object_key}`;
    const jobId = await enqueueJob(sql, { kind: "purge_unattached_media", payload: {} });
    const runner = await startJobs({
      databaseUrl: harness.config.databaseUrl,
      periodic: false,
      pollIntervalMs: 100,
      ports: { media: { kind: "local", dir, signingSecret: "worker-test-secret" } },
    });
    try {
      assert.equal(runner.mode, "worker-thread");
      await pollUntil(
        "the purge job to finish",
        async () => {
          const [job] = await sql<{ status: string }[]>`select status from jobs where id = ${jobId}`;
          return job.status === "done" ? true : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    } finally {
      await runner.stop();
    }
    await assert.rejects(stat(file), { code: "ENOENT" });
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from media_uploads where object_key = ${object_key}`;
    assert.equal(count, 0);
  });
});
