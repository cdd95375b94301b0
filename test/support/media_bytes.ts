/** Real image bytes for media tests, and an upload through `POST /v1/media` + the signed PUT. */
import assert from "node:assert/strict";
import { transports, type Harness } from "./harness.ts";

/** A 1x1 transparent PNG. */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** A 1x1 GIF. */
export const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Announces and uploads `bytes` as `key`'s user over transport `index`; answers the object key. */
export async function uploadMedia(harness: Harness, index: number, key: string, bytes: Buffer, fileType: string): Promise<string> {
  const extension = fileType.split("/")[1];
  const announced = await transports(harness)[index].request("POST", "/v1/media", { key, body: { filename: `dot.${extension}`, file_type: fileType, size: bytes.length } });
  assert.equal(announced.status, 201, JSON.stringify(announced.body));
  const url = new URL(announced.body.data.upload_url);
  const target = index === 0 ? `http://in-process.test${url.pathname}${url.search}` : announced.body.data.upload_url;
  const request = new Request(target, { method: "PUT", headers: { "Content-Type": fileType }, body: new Uint8Array(bytes) });
  const answer = index === 0 ? await harness.threadline.fetch(request) : await fetch(request);
  assert.ok(answer.ok, `upload answered ${answer.status}: ${await answer.text()}`);
  return announced.body.data.object_key;
}
