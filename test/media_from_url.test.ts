/**
 * `POST /v1/media/from-url` and the MCP tool `upload_media_from_url` (spec Errors:
 * `url_not_allowed`, `fetch_failed`; Limits 10), against a loopback https server whose
 * self-signed CA the instance trusts (`outboundCa`) and whose exact `host:port` the
 * operator allowed (`outboundAllowHosts`); every other address takes the guard's path.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomIp, startHarness, transports, type Harness } from "./support/harness.ts";
import { describeMatrix } from "./support/describe_matrix.ts";
import { GIF_1X1, PNG_1X1 } from "./support/media_bytes.ts";
import { createKey } from "../core/auth/keys.ts";
import { createGuardedOutbound } from "../adapters/outbound/guarded_get.ts";
import { FetchFailedError, UrlNotAllowedError } from "../core/outbound/outbound.ts";

const MB = 1024 * 1024;
const TIMEOUT_MS = 1_500;

/** What the image server answers, by path; `hits` counts requests per path. */
function imageSite(hits: Map<string, number>) {
  return (request: IncomingMessage, response: ServerResponse) => {
    hits.set(request.url ?? "/", (hits.get(request.url ?? "/") ?? 0) + 1);
    const path = (request.url ?? "/").split("?")[0];
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      response.writeHead(302, { Location: left > 0 ? `/hop/${left - 1}` : "/images/dot.png" }).end();
    } else if (path === "/images/dot.png" || path === "/images/dot") {
      response.writeHead(200, { "Content-Type": "application/octet-stream" }).end(PNG_1X1);
    } else if (path === "/anim.gif") {
      response.writeHead(200, { "Content-Type": "image/gif" }).end(GIF_1X1);
    } else if (path === "/page.html") {
      response.writeHead(200, { "Content-Type": "image/png" }).end("<html><body>not an image</body></html>");
    } else if (path === "/big.png") {
      // A real PNG start over the 5MB bound of PNGs, under the 15MB download cap.
      response.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.concat([PNG_1X1, Buffer.alloc(6 * MB)]));
    } else if (path === "/huge-declared") {
      response.writeHead(200, { "Content-Type": "image/gif", "Content-Length": String(16 * MB) });
      response.write(GIF_1X1);
      // Never sends the rest: the client must give up on the declared length alone.
    } else if (path === "/huge-streamed") {
      response.writeHead(200, { "Content-Type": "image/gif" });
      const chunk = Buffer.alloc(MB, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 20 && response.write(sent === 0 ? Buffer.concat([GIF_1X1, chunk]) : chunk)) sent += 1;
        if (sent < 20) response.once("drain", pump);
        else response.end();
      };
      response.on("error", () => {});
      pump();
    } else if (path === "/slow") {
      response.writeHead(200, { "Content-Type": "image/png" });
      response.write(PNG_1X1.subarray(0, 8));
    } else if (path === "/to-private") {
      response.writeHead(302, { Location: "https://10.0.0.1/x.png" }).end();
    } else if (path === "/to-metadata") {
      response.writeHead(301, { Location: "https://169.254.169.254/latest/meta-data" }).end();
    } else if (path === "/to-loopback-name") {
      response.writeHead(307, { Location: "https://localhost:1/x.png" }).end();
    } else response.writeHead(404).end();
  };
}

describe("POST /v1/media/from-url and upload_media_from_url", () => {
  const hits = new Map<string, number>();
  let httpsSite: HttpsServer;
  let httpSite: HttpServer;
  let site = "";
  let plainSite = "";
  let harness: Harness;
  let unconfigured: Harness;
  let userId = 0;

  before(async () => {
    const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
      keySize: 2048,
      algorithm: "sha256",
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    });
    httpsSite = createHttpsServer({ key: pems.private, cert: pems.cert }, imageSite(hits));
    httpSite = createHttpServer(imageSite(hits));
    await new Promise<void>((resolve) => httpsSite.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => httpSite.listen(0, "127.0.0.1", resolve));
    site = `https://127.0.0.1:${(httpsSite.address() as AddressInfo).port}`;
    plainSite = `http://127.0.0.1:${(httpSite.address() as AddressInfo).port}`;
    const allowHosts = [new URL(site).host, new URL(plainSite).host];
    harness = await startHarness({ config: { outboundAllowHosts: allowHosts, outboundCa: pems.cert, outboundTimeoutMs: TIMEOUT_MS } });
    unconfigured = await startHarness({ config: { mediaStore: "none", outboundAllowHosts: allowHosts, outboundCa: pems.cert } });
    const [row] = await harness.services.sql<{ user_id: number }[]>`select user_id from accounts where id = ${harness.world.accounts.main}`;
    userId = row.user_id;
  });
  after(async () => {
    await harness.close();
    await unconfigured.close();
    httpsSite.closeAllConnections();
    httpSite.closeAllConnections();
    await new Promise<void>((resolve) => httpsSite.close(() => resolve()));
    await new Promise<void>((resolve) => httpSite.close(() => resolve()));
  });

  const freshKey = async (name: string) => (await createKey(harness.services.sql, { userId, name, scopes: ["read", "write"], prefix: "sxk_" })).key;
  const uploadsOf = async (key: string) => {
    const [{ count }] = await harness.services.sql<{ count: number }[]>`
      select count(*)::int as count from media_uploads u join api_keys k on k.id = u.api_key_id where k.name = ${key}`;
    return count;
  };

  describeMatrix(({ index, name, transport }) => {
    const post = (body: unknown, key = harness.world.keys.write, headers?: Record<string, string>) =>
      transport(harness).request("POST", "/v1/media/from-url", { key, body, headers });

    test(`downloads an image over https, stores it as an upload a draft can attach (${name})`, async () => {
      const answer = await post({ url: `${site}/images/dot.png` });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const data = answer.body.data;
      assert.match(data.object_key, /^[A-Za-z0-9_-]{22}\.png$/);
      assert.deepEqual([data.file_type, data.size, data.filename, data.source_url], ["image/png", PNG_1X1.length, "dot.png", `${site}/images/dot.png`]);
      assert.equal(data.account_id, String(harness.world.accounts.main));
      const shown = await fetch(new URL(data.url, harness.baseUrl).toString().replace(/^http:\/\/[^/]+/, harness.baseUrl));
      assert.equal(shown.status, 200);
      assert.deepEqual(Buffer.from(await shown.arrayBuffer()), PNG_1X1);
      const draft = await transport(harness).request("POST", "/v1/scheduled-posts", {
        key: harness.world.keys.write,
        body: { parts: [{ text: "from a URL", media: [{ object_key: data.object_key, alt_text: "a dot" }] }] },
      });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      assert.deepEqual(draft.body.data.parts[0].media, [{ object_key: data.object_key, alt_text: "a dot" }]);
    });

    test(`the type comes from the bytes; filename defaults from the URL; redirects up to 3 are followed (${name})`, async () => {
      const gif = await post({ url: `${site}/anim.gif`, filename: "party.gif" });
      assert.equal(gif.status, 201, JSON.stringify(gif.body));
      assert.deepEqual([gif.body.data.file_type, gif.body.data.filename], ["image/gif", "party.gif"]);
      const bare = await post({ url: `${site}/images/dot` });
      assert.equal(bare.body.data.filename, "dot.png");
      // Three redirects: /hop/2, /hop/1, /hop/0, then the image.
      const hopped = await post({ url: `${site}/hop/2` });
      assert.equal(hopped.status, 201, JSON.stringify(hopped.body));
      assert.equal(hopped.body.data.source_url, `${site}/images/dot.png`);
      // The operator's allowed hosts may use http.
      const plain = await post({ url: `${plainSite}/images/dot.png` });
      assert.equal(plain.status, 201, JSON.stringify(plain.body));
    });

    test(`url_not_allowed: http, credentials, private, loopback, link-local and mapped addresses, and names resolving to them (${name})`, async () => {
      for (const url of [
        "http://images.example.com/dot.png",
        "ftp://images.example.com/dot.png",
        `https://user:secret@${new URL(site).host}/images/dot.png`,
        "https://127.0.0.1/dot.png",
        "https://127.0.0.1:1/dot.png",
        "https://10.0.0.1/dot.png",
        "https://192.168.1.20/dot.png",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/dot.png",
        "https://[::ffff:127.0.0.1]/dot.png",
        "https://[::ffff:a9fe:a9fe]/dot.png",
        "https://[fd00::1]/dot.png",
        "https://0x7f.1/dot.png",
        "https://2130706433/dot.png",
        "https://224.0.0.1/dot.png",
        "https://localhost:1/dot.png",
        "not a url",
      ]) {
        const answer = await post({ url });
        assert.equal(answer.status, 400, `${url}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error.code, "url_not_allowed", url);
      }
      // A name is refused without saying where it resolved: a tenant cannot map internal names.
      const named = await post({ url: "https://localhost:1/dot.png" });
      assert.doesNotMatch(named.body.error.message, /127\.0\.0\.1|::1/, named.body.error.message);
    });

    test(`url_not_allowed on a redirect to a private, metadata or loopback-named address (${name})`, async () => {
      for (const path of ["/to-private", "/to-metadata", "/to-loopback-name"]) {
        const answer = await post({ url: `${site}${path}` });
        assert.equal(answer.status, 400, path);
        assert.equal(answer.body.error.code, "url_not_allowed", `${path}: ${JSON.stringify(answer.body)}`);
      }
    });

    test(`fetch_failed: a 4th redirect, an HTTP error, a body over 15MB (declared or streamed), a slow server, no server (${name})`, async () => {
      for (const path of ["/hop/3", "/missing.png", "/huge-declared", "/huge-streamed", "/slow"]) {
        const started = Date.now();
        const answer = await post({ url: `${site}${path}` });
        assert.equal(answer.status, 400, path);
        assert.equal(answer.body.error.code, "fetch_failed", `${path}: ${JSON.stringify(answer.body)}`);
        assert.ok(Date.now() - started < TIMEOUT_MS + 3_000, `${path} gave up in time`);
      }
      const closed = createHttpsServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      // Not an allowed host:port, so the guard refuses it before any connection...
      assert.equal((await post({ url: `https://127.0.0.1:${port}/x.png` })).body.error.code, "url_not_allowed");
    });

    test(`unsupported_media_type and media_too_large are checked on the bytes, whatever Content-Type said (${name})`, async () => {
      const html = await post({ url: `${site}/page.html` });
      assert.equal(html.status, 400);
      assert.equal(html.body.error.code, "unsupported_media_type");
      const big = await post({ url: `${site}/big.png` });
      assert.equal(big.status, 400);
      assert.equal(big.body.error.code, "media_too_large");
    });

    test(`bad input answers 400 invalid_parameter (${name})`, async () => {
      for (const body of [{}, { url: 12 }, { url: "" }, { url: `https://a.example/${"x".repeat(2100)}` }, { url: `${site}/x.png`, filename: "a/b.png" }]) {
        const answer = await post(body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.code, "invalid_parameter", JSON.stringify(body));
      }
    });

    test(`an Idempotency-Key replays the first answer without downloading again (${name})`, async () => {
      const path = `/images/dot.png?once=${name}`;
      const headers = { "Idempotency-Key": `from-url-${name}-${Date.now()}` };
      const first = await post({ url: `${site}${path}` }, harness.world.keys.write, headers);
      const second = await post({ url: `${site}${path}` }, harness.world.keys.write, headers);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.body.data.object_key, first.body.data.object_key);
      assert.equal(hits.get(path), 1);
    });

    test(`refusals are not counted; the 100-per-key quota answers 429 media_quota_exceeded before downloading (${name})`, async () => {
      const keyName = `from-url quota ${name}`;
      const key = await freshKey(keyName);
      await post({ url: "https://10.0.0.1/x.png" }, key);
      await post({ url: `${site}/page.html` }, key);
      assert.equal(await uploadsOf(keyName), 0);
      for (let i = 0; i < 100; i++) {
        const announced = await transport(harness).request("POST", "/v1/media", { key, body: { filename: "a.png", file_type: "image/png", size: 10 } });
        assert.equal(announced.status, 201);
      }
      const path = `/images/dot.png?quota=${name}`;
      const refused = await post({ url: `${site}${path}` }, key);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, "media_quota_exceeded");
      assert.equal(hits.get(path), undefined, "nothing was downloaded");
      assert.equal(await uploadsOf(keyName), 100);
    });

    test(`503 media_not_configured without a media store (${name})`, async () => {
      const answer = await transports(unconfigured)[index].request("POST", "/v1/media/from-url", {
        key: unconfigured.world.keys.write,
        body: { url: `${site}/images/dot.png` },
      });
      assert.equal(answer.status, 503);
      assert.equal(answer.body.error.code, "media_not_configured");
    });

    test(`a read-only key is refused with 403 insufficient_scope (${name})`, async () => {
      const answer = await post({ url: `${site}/images/dot.png` }, harness.world.keys.read);
      assert.equal(answer.status, 403);
      assert.equal(answer.body.error.code, "insufficient_scope");
    });
  });

  test("the MCP tool upload_media_from_url stores the image, and refuses unsafe URLs with the same codes", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${harness.baseUrl}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${harness.world.keys.write}`, "X-Forwarded-For": randomIp() } },
    });
    const client = new Client({ name: "threadline-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      const tool = tools.tools.find((candidate) => candidate.name === "upload_media_from_url");
      assert.ok(tool, "listed");
      assert.ok((tool.inputSchema.required ?? []).includes("url"));
      const stored = (await client.callTool({ name: "upload_media_from_url", arguments: { url: `${site}/anim.gif` } })) as CallToolResult;
      assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
      const data = (stored.structuredContent as { data: { object_key: string; file_type: string } }).data;
      assert.equal(data.file_type, "image/gif");
      for (const [url, code] of [
        ["https://169.254.169.254/latest/meta-data", "url_not_allowed"],
        ["http://images.example.com/a.png", "url_not_allowed"],
        [`${site}/hop/3`, "fetch_failed"],
      ]) {
        const refused = (await client.callTool({ name: "upload_media_from_url", arguments: { url } })) as CallToolResult;
        assert.equal(refused.isError, true, url);
        const text = (refused.content[0] as { text: string }).text;
        assert.equal(JSON.parse(text).error.code, code, url);
      }
    } finally {
      await client.close();
    }
  });
});

describe("the guarded outbound client", () => {
  test("checks the address it connects to: a name resolving to loopback is refused at connect, not by a separate lookup", async () => {
    const server = createHttpServer((_request, response) => response.end("reached"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const guarded = createGuardedOutbound({ timeoutMs: 2_000 });
      await assert.rejects(guarded.get(`https://localhost:${port}/`, { maxBytes: 100, accept: "*/*" }), UrlNotAllowedError);
      const allowedByName = createGuardedOutbound({ allowHosts: `localhost:${port}`, timeoutMs: 2_000 });
      const reached = await allowedByName.get(`http://localhost:${port}/`, { maxBytes: 100, accept: "*/*" });
      assert.equal(new TextDecoder().decode(reached.body), "reached");
      await assert.rejects(allowedByName.get(`http://localhost:${port}/`, { maxBytes: 3, accept: "*/*" }), (error: unknown) => {
        assert.ok(error instanceof FetchFailedError && error.tooLarge);
        return true;
      });
      const cut = await allowedByName.get(`http://localhost:${port}/`, { maxBytes: 3, truncate: true, accept: "*/*" });
      assert.equal(new TextDecoder().decode(cut.body), "rea");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
