/**
 * Every answer of the server carries the error envelope, whatever layer refuses the request
 * (spec: Errors): a path h3 cannot decode, one that resolves out of every route, headers Node
 * cannot take. Raw sockets, because a fetch client would normalise or refuse these requests
 * before sending them.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { startHarness, type Harness } from "./support/harness.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

/** Sends `request` as written and answers the status and the parsed JSON body. */
async function raw(request: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(harness.baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
  const [head, ...rest] = text.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const body = rest.join("\r\n\r\n");
  const json = /transfer-encoding: chunked/i.test(head) ? body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n/gi, "").replace(/\r\n0\r\n*$/, "") : body;
  return { status, body: JSON.parse(json) };
}

const get = (path: string, headers = "") =>
  raw(`GET ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${harness.world.keys.write}\r\n${headers}Connection: close\r\n\r\n`);

describe("errors from below the routes keep the envelope", () => {
  test("a path that is not valid percent-encoding: 400 invalid_parameter", async () => {
    for (const path of ["/v1/articles/%zz", "/v1/tags/%E0%A4%A"]) {
      const answer = await get(path);
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.error.code, "invalid_parameter", JSON.stringify(answer.body));
      assert.equal(typeof answer.body.error.message, "string");
    }
  });

  test("a path that resolves out of /v1: 404 not_found", async () => {
    for (const path of ["/v1/articles/../..", "/v1/articles/%2e%2e/%2e%2e/x", "/nothing"]) {
      const answer = await get(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.error.code, "not_found", JSON.stringify(answer.body));
    }
  });

  test("headers past Node's 16 KB: 431 request_headers_too_large, then the connection closes", async () => {
    const answer = await get("/v1/tags", `X-Padding: ${"p".repeat(20_000)}\r\n`);
    assert.equal(answer.status, 431);
    assert.equal(answer.body.error.code, "request_headers_too_large");
  });

  test("a request line that is not HTTP: 400 invalid_request", async () => {
    const answer = await raw("NOT A REQUEST\r\n\r\n");
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, "invalid_request");
  });
});
