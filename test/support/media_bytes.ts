/**
 * Real image bytes for media tests (1x1 PNG, GIF and WEBP, a JPEG's JFIF start), an upload
 * through `POST /v1/media` + the signed PUT, and an assertion on refused media calls.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../core/errors.ts";
import { transports, type Harness } from "./harness.ts";

/** A 1x1 transparent PNG. */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** A 1x1 GIF. */
export const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** A 1x1 lossless WEBP. */
export const WEBP_1X1 = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");

/** A JPEG's JFIF start, filler and end marker. */
export const JPEG_HEAD = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1"),
  Buffer.alloc(40, 7),
  Buffer.from([0xff, 0xd9]),
]);

/** Asserts `promise` rejects with an ApiError of `code` (and a message matching `pattern`). */
export async function rejectsWithCode(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

/** Announces and uploads `bytes` as `key`'s user over transport `index`; answers the object key. */
export async function uploadMedia(harness: Harness, index: number, key: string, bytes: Buffer, fileType: string): Promise<string> {
  const extension = fileType.split("/")[1];
  const announced = await transports(harness)[index].request("POST", "/v1/media", {
    key,
    body: { filename: `dot.${extension}`, file_type: fileType, size: bytes.length },
  });
  assert.equal(announced.status, 201, JSON.stringify(announced.body));
  const url = new URL(announced.body.data.upload_url);
  const target = index === 0 ? `http://in-process.test${url.pathname}${url.search}` : announced.body.data.upload_url;
  const request = new Request(target, { method: "PUT", headers: { "Content-Type": fileType }, body: new Uint8Array(bytes) });
  const answer = index === 0 ? await harness.threadline.fetch(request) : await fetch(request);
  assert.ok(answer.ok, `upload answered ${answer.status}: ${await answer.text()}`);
  return announced.body.data.object_key;
}
