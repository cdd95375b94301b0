/**
 * The request body (ARCHITECTURE, request path step 1): read only after authentication,
 * never past 1 MiB (`413 payload_too_large`, with or without a Content-Length), on the
 * REST surface and on tRPC, in process and over a listening server.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, randomIp, type Harness } from "./support/harness.ts";
import { JSON_BODY_LIMIT } from "../adapters/http/bounded_body.ts";

interface Wire {
  name: "in-process" | "http";
  send(request: Request): Promise<Response>;
  base: string;
}

/** A body of exactly `size` bytes that is valid JSON: `{"name":"aaa..."}`. */
function jsonOfSize(size: number): string {
  const frame = '{"name":""}';
  return `{"name":"${"a".repeat(size - frame.length)}"}`;
}

/** `text` as a stream of 64 KiB chunks: no Content-Length, chunked over HTTP. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 65536));
      offset += 65536;
    },
  });
}

interface Sent {
  status: number;
  headers: Headers;
  body: any;
}

describe("request bodies", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });

  const wires = (): Wire[] => [
    { name: "in-process", send: (request) => harness.threadline.fetch(request), base: "http://in-process.test" },
    { name: "http", send: (request) => fetch(request), base: harness.baseUrl },
  ];

  async function send(wire: Wire, path: string, options: { key?: string; body: string; chunked?: boolean }): Promise<Sent> {
    const headers = new Headers({ "Content-Type": "application/json", "X-Forwarded-For": randomIp() });
    if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
    const init: RequestInit & { duplex?: "half" } = { method: "POST", headers };
    if (options.chunked) {
      init.body = streamOf(options.body);
      init.duplex = "half";
    } else {
      init.body = options.body;
    }
    const response = await wire.send(new Request(`${wire.base}${path}`, init)).catch((error) => {
      throw new Error(`${wire.name}: ${error.message} (${error.cause?.code ?? error.cause?.message})`, { cause: error });
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }

  /** The API code of a REST or tRPC error answer. */
  function codeOf(answer: Sent): unknown {
    return answer.body?.error?.data?.code ?? answer.body?.error?.code;
  }

  const surfaces = [
    { surface: "REST", path: "/v1/tags" },
    { surface: "tRPC", path: "/trpc/tags.create" },
  ];

  for (const { surface, path } of surfaces) {
    describe(surface, () => {
      test("no key and malformed JSON answers 401 unauthorized: the body is not read before authentication", async () => {
        for (const wire of wires()) {
          const answer = await send(wire, path, { body: "{not json" });
          assert.equal(answer.status, 401, `${wire.name}: ${JSON.stringify(answer.body)}`);
          assert.equal(codeOf(answer), "unauthorized", wire.name);
        }
      });

      test("no key and a body over 1 MiB answers 401, not 413", async () => {
        for (const wire of wires()) {
          const answer = await send(wire, path, { body: jsonOfSize(JSON_BODY_LIMIT + 1) });
          assert.equal(answer.status, 401, wire.name);
        }
      });

      test("an authenticated malformed JSON body answers 400 invalid_parameter with X-RateLimit-*", async () => {
        for (const wire of wires()) {
          const answer = await send(wire, path, { key: harness.world.keys.write, body: "{not json" });
          assert.equal(answer.status, 400, `${wire.name}: ${JSON.stringify(answer.body)}`);
          assert.equal(codeOf(answer), "invalid_parameter", wire.name);
          assert.ok(answer.headers.get("x-ratelimit-limit"), `${wire.name}: X-RateLimit-Limit`);
        }
      });

      for (const chunked of [false, true]) {
        const how = chunked ? "streamed without Content-Length" : "with Content-Length";
        test(`1 MiB + 1 byte ${how} answers 413 payload_too_large with X-RateLimit-*`, async () => {
          for (const wire of wires()) {
            const answer = await send(wire, path, { key: harness.world.keys.write, body: jsonOfSize(JSON_BODY_LIMIT + 1), chunked });
            assert.equal(answer.status, 413, `${wire.name}: ${JSON.stringify(answer.body).slice(0, 300)}`);
            assert.equal(codeOf(answer), "payload_too_large", wire.name);
            assert.ok(answer.headers.get("x-ratelimit-limit"), `${wire.name}: X-RateLimit-Limit`);
          }
        });

        test(`exactly 1 MiB ${how} is read (the tag name is then too long: 400 invalid_parameter)`, async () => {
          for (const wire of wires()) {
            const answer = await send(wire, path, { key: harness.world.keys.write, body: jsonOfSize(JSON_BODY_LIMIT), chunked });
            assert.equal(answer.status, 400, `${wire.name}: ${JSON.stringify(answer.body).slice(0, 300)}`);
            assert.equal(codeOf(answer), "invalid_parameter", wire.name);
          }
        });
      }
    });
  }

  test("a declared Content-Length over the bound is refused without reading the body", async () => {
    // The stream would fail if read: the answer proves the bound was applied from the header.
    const headers = new Headers({
      "Content-Type": "application/json",
      "Content-Length": String(JSON_BODY_LIMIT + 1),
      Authorization: `Bearer ${harness.world.keys.write}`,
      "X-Forwarded-For": randomIp(),
    });
    let pulled = false;
    for (const path of ["/v1/tags", "/trpc/tags.create"]) {
      const body = new ReadableStream<Uint8Array>(
        {
          pull() {
            pulled = true;
            throw new Error("the body was read");
          },
        },
        { highWaterMark: 0 },
      );
      const init = { method: "POST", headers, body, duplex: "half" } as RequestInit;
      const response = await harness.threadline.fetch(new Request(`http://in-process.test${path}`, init));
      assert.equal(response.status, 413, path);
      await response.text();
    }
    assert.equal(pulled, false);
  });
});
