/**
 * The S3-compatible media store against a loopback fake S3 that verifies SigV4
 * (test/support/fake_s3_server.ts): presigned PUTs, signed reads and deletes, and the
 * lazy check of the bytes when a post attaches the key (spec: POST /v1/media; Errors:
 * invalid_media, media_not_uploaded, unsupported_media_type, media_too_large).
 */
import { configFromEnv } from "../adapters/runtime/config.ts";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { startFakeS3, type FakeS3 } from "./support/fake_s3_server.ts";
import { GIF_1X1, PNG_1X1, rejectsWithCode } from "./support/media_bytes.ts";
import { checkAttachableMedia } from "../core/media/attachable_media.ts";
import { purgeUnattachedMedia } from "../core/media/media_jobs.ts";
import { presignUrl, sha256Hex, signHeaders } from "../adapters/media/sigv4.ts";
import { mediaStoreConfig } from "../adapters/media/open_media_store.ts";
import { createS3MediaStore } from "../adapters/media/s3_media_store.ts";

const [PNG, GIF] = [PNG_1X1, GIF_1X1];
const rejects = rejectsWithCode;

describe("SigV4 signer", () => {
  // The examples of the AWS S3 documentation ("Authenticating Requests: Using Query
  // Parameters" and "... Using the Authorization Header"), with their published signatures.
  const credentials = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "s3" };
  const at = new Date("2013-05-24T00:00:00Z");

  test("presignUrl() gives the AWS documentation's presigned GET signature", () => {
    const url = presignUrl({ method: "GET", url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"), expiresSeconds: 86400, at, credentials });
    assert.equal(new URL(url).searchParams.get("X-Amz-Signature"), "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
    assert.match(url, /X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request/);
  });

  test("signHeaders() gives the AWS documentation's GET-with-Range signature", () => {
    const headers = signHeaders({
      method: "GET",
      url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
      headers: { Range: "bytes=0-9" },
      payloadHash: sha256Hex(""),
      at,
      credentials,
    });
    assert.equal(
      headers.authorization,
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  test("MEDIA_STORE=s3 without its settings names the missing variables; an unknown store is refused", () => {
    assert.throws(() => mediaStoreConfig({ mediaStore: "s3", s3Bucket: "b" }), /"S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_ENDPOINT"/);
    assert.throws(() => mediaStoreConfig(configFromEnv({ MEDIA_STORE: "ftp" })), /Unknown MEDIA_STORE "ftp"/);
    assert.deepEqual(mediaStoreConfig({ mediaStore: "none" }), { kind: "none" });
  });
});

describe("media with an S3-compatible store", () => {
  let fake: FakeS3;
  let harness: Harness;
  before(async () => {
    fake = await startFakeS3();
    harness = await startHarness({
      config: {
        mediaStore: "s3",
        s3Endpoint: fake.endpoint,
        s3Bucket: fake.bucket,
        s3Region: fake.region,
        s3AccessKeyId: fake.accessKeyId,
        s3SecretAccessKey: fake.secretAccessKey,
      },
    });
  });
  after(async () => {
    await harness.close();
    await fake.close();
  });

  const announce = async (index: number, fileType: string, size: number, key = harness.world.keys.write) => {
    const answer = await transports(harness)[index].request("POST", "/v1/media", {
      key,
      body: { filename: `f.${fileType.split("/")[1]}`, file_type: fileType, size },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data as { object_key: string; upload_url: string; url: string };
  };
  const put = (url: string, bytes: Uint8Array, contentType: string) =>
    fetch(url, { method: "PUT", headers: { "Content-Type": contentType }, body: bytes as BodyInit });

  describeMatrix(({ index, name }) => {
    test(`POST /v1/media answers a presigned bucket URL the fake accepts, signing type and length (${name})`, async () => {
      const data = await announce(index, "image/png", PNG.length);
      const url = new URL(data.upload_url);
      assert.equal(url.origin, fake.endpoint);
      assert.equal(url.pathname, `/${fake.bucket}/${data.object_key}`);
      assert.equal(url.searchParams.get("X-Amz-Expires"), "1200");
      assert.equal(url.searchParams.get("X-Amz-SignedHeaders"), "content-length;content-type;host");
      const answer = await put(data.upload_url, PNG, "image/png");
      assert.equal(answer.status, 200, await answer.text());
      assert.deepEqual(fake.objects.get(data.object_key)?.bytes, PNG);
      assert.equal(fake.objects.get(data.object_key)?.contentType, "image/png");
      // `url` is a presigned GET (no public URL configured) the fake serves.
      const shown = await fetch(data.url);
      assert.equal(shown.status, 200);
      assert.deepEqual(Buffer.from(await shown.arrayBuffer()), PNG);
    });
  });

  test("the fake refuses a tampered signature, another Content-Type or length, an unsigned request and an expired URL", async () => {
    const data = await announce(0, "image/png", PNG.length);
    const tampered = new URL(data.upload_url);
    const signature = tampered.searchParams.get("X-Amz-Signature")!;
    tampered.searchParams.set("X-Amz-Signature", (signature[0] === "0" ? "1" : "0") + signature.slice(1));
    const refusals: [string, Response][] = [
      ["tampered signature", await put(tampered.toString(), PNG, "image/png")],
      ["other Content-Type", await put(data.upload_url, PNG, "image/jpeg")],
      ["other length", await put(data.upload_url, Buffer.concat([PNG, Buffer.alloc(5)]), "image/png")],
      ["unsigned", await fetch(`${fake.endpoint}/${fake.bucket}/${data.object_key}`, { method: "PUT", body: PNG as BodyInit })],
    ];
    fake.skewMs = 20 * 60 * 1000 + 1000;
    try {
      refusals.push(["expired", await put(data.upload_url, PNG, "image/png")]);
    } finally {
      fake.skewMs = 0;
    }
    for (const [what, response] of refusals) {
      assert.equal(response.status, 403, what);
      assert.match(await response.text(), what === "expired" ? /Request has expired/ : what === "unsigned" ? /AccessDenied/ : /SignatureDoesNotMatch/, what);
    }
    assert.equal(fake.objects.has(data.object_key), false);
  });

  test("checkAttachableMedia() looks at the object lazily: never uploaded, then uploaded (recorded), wrong type, empty, too large", async () => {
    const { sql, media } = harness.services;
    const workspace = harness.world.accounts.main;
    const data = await announce(1, "image/gif", GIF.length);
    await rejects(checkAttachableMedia(sql, media, workspace, [data.object_key]), "media_not_uploaded", new RegExp(data.object_key));
    assert.equal((await put(data.upload_url, GIF, "image/gif")).status, 200);
    const reads = fake.requests.length;
    const found = await checkAttachableMedia(sql, media, workspace, [data.object_key]);
    assert.equal(found.get(data.object_key)?.file_type, "image/gif");
    assert.equal(new URL(found.get(data.object_key)!.url).pathname, `/${fake.bucket}/${data.object_key}`);
    const lookedAt = fake.requests.slice(reads);
    assert.deepEqual(
      lookedAt.map((request) => [request.method, request.auth, request.status]),
      [["GET", "header", 206]],
    );
    const [row] = await sql<{ size: number; detected_type: string; uploaded_at: Date | null }[]>`
      select size, detected_type, uploaded_at from media_uploads where object_key = ${data.object_key}`;
    assert.deepEqual([row.size, row.detected_type, row.uploaded_at instanceof Date], [GIF.length, "image/gif", true]);

    // Bytes of another type under the declared one's Content-Type and length.
    const jpegAsPng = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(PNG.length - 4)]);
    const wrong = await announce(0, "image/png", jpegAsPng.length);
    assert.equal((await put(wrong.upload_url, jpegAsPng, "image/png")).status, 200);
    await rejects(checkAttachableMedia(sql, media, workspace, [wrong.object_key]), "unsupported_media_type", /JPG/);

    // Objects a misbehaving S3-compatible might keep: empty, or over the bound.
    const empty = await announce(0, "image/png", 10);
    fake.objects.set(empty.object_key, { bytes: Buffer.alloc(0), contentType: "image/png" });
    await rejects(checkAttachableMedia(sql, media, workspace, [empty.object_key]), "media_not_uploaded", /empty/);
    const huge = await announce(0, "image/png", 100);
    fake.objects.set(huge.object_key, { bytes: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), contentType: "image/png" });
    await rejects(checkAttachableMedia(sql, media, workspace, [huge.object_key]), "media_too_large");

    await rejects(checkAttachableMedia(sql, media, workspace, ["AAAAAAAAAAAAAAAAAAAAAA.gif"]), "invalid_media");
    const foreign = await announce(0, "image/png", PNG.length, harness.world.keys.other_user);
    await rejects(checkAttachableMedia(sql, media, workspace, [foreign.object_key]), "invalid_media", new RegExp(foreign.object_key));
  });

  test("a store signing with the wrong secret is refused by the fake (502 upstream_error naming the S3 code)", async () => {
    const data = await announce(0, "image/png", PNG.length);
    assert.equal((await put(data.upload_url, PNG, "image/png")).status, 200);
    const wrong = createS3MediaStore({
      endpoint: fake.endpoint,
      bucket: fake.bucket,
      region: fake.region,
      accessKeyId: fake.accessKeyId,
      secretAccessKey: "not-the-secret",
    });
    await rejects(wrong.head(data.object_key, 16), "upstream_error", /SignatureDoesNotMatch/);
    await rejects(wrong.delete(data.object_key), "upstream_error", /SignatureDoesNotMatch/);
    assert.ok(fake.objects.has(data.object_key));
  });

  test("the purge deletes unattached objects from the bucket with signed DELETEs", async () => {
    const { sql, media } = harness.services;
    const data = await announce(0, "image/png", PNG.length);
    assert.equal((await put(data.upload_url, PNG, "image/png")).status, 200);
    const before = fake.requests.length;
    await purgeUnattachedMedia(sql, media, new Date(Date.now() + 25 * 3600 * 1000));
    assert.equal(fake.objects.has(data.object_key), false);
    assert.ok(
      fake.requests
        .slice(before)
        .some((request) => request.method === "DELETE" && request.key === data.object_key && request.auth === "header" && request.status === 204),
    );
    const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from media_uploads where object_key = ${data.object_key}`;
    assert.equal(count, 0);
  });
});
