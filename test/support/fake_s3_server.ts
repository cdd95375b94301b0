/**
 * A fake S3-compatible server on loopback (path-style `/<bucket>/<key>`) that VERIFIES
 * SigV4 like S3 does: presigned query auth and Authorization-header auth, the credential
 * scope, expiry, the payload hash, and every signed header (so a changed `Content-Type`
 * or `Content-Length` is refused). Written apart from adapters/media/sigv4.ts, from the
 * AWS documentation, so one mistake cannot hide in both.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One stored object. */
export interface FakeObject {
  bytes: Buffer;
  contentType: string;
}

/** What the fake answered, for assertions. */
export interface FakeS3Request {
  method: string;
  key: string;
  auth: "presigned" | "header" | "none";
  status: number;
  code?: string;
}

/** A running fake. */
export interface FakeS3 {
  /** `http://127.0.0.1:<port>` (the S3_ENDPOINT). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, FakeObject>;
  requests: FakeS3Request[];
  /** Moves the fake's clock (for expiry), in ms from the real time. */
  skewMs: number;
  close(): Promise<void>;
}

const SERVICE = "s3";

/** Starts a fake S3 with one bucket. */
export async function startFakeS3(options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<FakeS3> {
  const fake: FakeS3 = {
    endpoint: "",
    bucket: options.bucket ?? "threadline-media",
    region: options.region ?? "eu-central-1",
    accessKeyId: options.accessKeyId ?? "AKIAFAKEFAKEFAKE0001",
    secretAccessKey: options.secretAccessKey ?? "fake/secret+key/for/tests/only/0123456789",
    objects: new Map(),
    requests: [],
    skewMs: 0,
    close: async () => {},
  };
  const server = createServer((request, response) => {
    void handle(fake, request, response).catch((error) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

class S3Failure extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function handle(fake: FakeS3, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const rawUrl = request.url ?? "/";
  const [rawPath, rawQuery = ""] = rawUrl.split("?", 2);
  const body = await readBody(request);
  const method = request.method ?? "GET";
  const prefix = `/${fake.bucket}/`;
  const key = rawPath.startsWith(prefix) ? decodeURIComponent(rawPath.slice(prefix.length)) : "";
  const query = parseQuery(rawQuery);
  const auth = query.has("X-Amz-Signature") ? "presigned" : request.headers.authorization ? "header" : "none";
  const record: FakeS3Request = { method, key, auth, status: 200 };
  fake.requests.push(record);
  const reply = (status: number, headers: Record<string, string>, payload?: Buffer | string) => {
    record.status = status;
    response.writeHead(status, headers);
    response.end(method === "HEAD" ? undefined : payload);
  };
  try {
    if (!key) throw new S3Failure(404, "NoSuchBucket", "The specified bucket does not exist");
    if (auth === "presigned") verifyPresigned(fake, method, rawPath, query, request);
    else if (auth === "header") verifyHeaderAuth(fake, method, rawPath, query, request, body);
    else throw new S3Failure(403, "AccessDenied", "Anonymous access is not allowed");

    if (method === "PUT") {
      fake.objects.set(key, { bytes: body, contentType: String(request.headers["content-type"] ?? "binary/octet-stream") });
      return reply(200, { ETag: `"${createHash("md5").update(body).digest("hex")}"` });
    }
    if (method === "DELETE") {
      fake.objects.delete(key);
      return reply(204, {});
    }
    if (method === "GET" || method === "HEAD") {
      const object = fake.objects.get(key);
      if (!object) throw new S3Failure(404, "NoSuchKey", "The specified key does not exist.");
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(request.headers.range ?? ""));
      if (range) {
        const start = Number(range[1]);
        const size = object.bytes.length;
        if (start >= size) throw new S3Failure(416, "InvalidRange", "The requested range is not satisfiable");
        const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
        const part = object.bytes.subarray(start, end + 1);
        return reply(
          206,
          { "Content-Type": object.contentType, "Content-Length": String(part.length), "Content-Range": `bytes ${start}-${end}/${size}` },
          part,
        );
      }
      return reply(200, { "Content-Type": object.contentType, "Content-Length": String(object.bytes.length) }, object.bytes);
    }
    throw new S3Failure(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
  } catch (error) {
    if (!(error instanceof S3Failure)) throw error;
    record.code = error.code;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`;
    reply(error.status, { "Content-Type": "application/xml" }, xml);
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** Query parameters decoded (a repeated name keeps its last value; S3 requests never repeat one). */
function parseQuery(rawQuery: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of rawQuery.split("&")) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    const name = at < 0 ? pair : pair.slice(0, at);
    const value = at < 0 ? "" : pair.slice(at + 1);
    map.set(decodeURIComponent(name), decodeURIComponent(value));
  }
  return map;
}

/** RFC 3986 strict: only unreserved characters stay as they are. */
function strictEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function hashHex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function checkScope(fake: FakeS3, credential: string | undefined, date: string): string {
  const parts = (credential ?? "").split("/");
  if (parts.length !== 5) throw new S3Failure(400, "AuthorizationQueryParametersError", "Malformed credential");
  const [accessKeyId, day, region, service, terminator] = parts;
  if (accessKeyId !== fake.accessKeyId) throw new S3Failure(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.");
  if (region !== fake.region) throw new S3Failure(400, "AuthorizationHeaderMalformed", `The region "${region}" is wrong; expecting "${fake.region}"`);
  if (service !== SERVICE || terminator !== "aws4_request" || day !== date.slice(0, 8)) {
    throw new S3Failure(403, "SignatureDoesNotMatch", "Credential scope does not match");
  }
  return `${day}/${region}/${service}/${terminator}`;
}

function parseAmzDate(value: string | undefined): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? "");
  if (!match) throw new S3Failure(403, "AccessDenied", "X-Amz-Date must be in the ISO8601 Long Format");
  const [, y, mo, d, h, mi, s] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function expectedSignature(fake: FakeS3, date: string, scope: string, canonicalRequest: string): string {
  const stringToSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${hashHex(canonicalRequest)}`;
  let key: Buffer = Buffer.from(`AWS4${fake.secretAccessKey}`, "utf8");
  for (const part of [date.slice(0, 8), fake.region, SERVICE, "aws4_request"]) key = createHmac("sha256", key).update(part, "utf8").digest();
  return createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
}

function canonicalRequestOf(
  method: string,
  rawPath: string,
  query: Map<string, string>,
  request: IncomingMessage,
  signedHeaders: string[],
  payloadHash: string,
): string {
  const canonicalQuery = [...query]
    .map(([name, value]) => `${strictEncode(name)}=${strictEncode(value)}`)
    .sort()
    .join("&");
  const headerLines = signedHeaders.map((name) => {
    const value = request.headers[name];
    if (value === undefined) throw new S3Failure(403, "SignatureDoesNotMatch", `Signed header "${name}" is missing from the request`);
    return `${name}:${String(value).trim().replace(/\s+/g, " ")}\n`;
  });
  return [method, rawPath, canonicalQuery, headerLines.join(""), signedHeaders.join(";"), payloadHash].join("\n");
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function verifyPresigned(fake: FakeS3, method: string, rawPath: string, query: Map<string, string>, request: IncomingMessage): void {
  if (query.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256") throw new S3Failure(400, "AuthorizationQueryParametersError", "Unsupported algorithm");
  const date = query.get("X-Amz-Date") ?? "";
  const signedAt = parseAmzDate(date);
  const scope = checkScope(fake, query.get("X-Amz-Credential"), date);
  const expires = Number(query.get("X-Amz-Expires"));
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) {
    throw new S3Failure(400, "AuthorizationQueryParametersError", "X-Amz-Expires must be between 1 and 604800 seconds");
  }
  const now = Date.now() + fake.skewMs;
  if (now > signedAt + expires * 1000) throw new S3Failure(403, "AccessDenied", "Request has expired");
  if (now < signedAt - 15 * 60 * 1000) throw new S3Failure(403, "AccessDenied", "Request is not valid yet");
  const signedHeaders = (query.get("X-Amz-SignedHeaders") ?? "").split(";");
  if (!signedHeaders.includes("host")) throw new S3Failure(400, "AuthorizationQueryParametersError", "Host must be signed");
  const given = query.get("X-Amz-Signature") ?? "";
  const unsigned = new Map([...query].filter(([name]) => name !== "X-Amz-Signature"));
  const canonical = canonicalRequestOf(method, rawPath, unsigned, request, signedHeaders, "UNSIGNED-PAYLOAD");
  if (!sameSignature(expectedSignature(fake, date, scope, canonical), given)) {
    throw new S3Failure(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided");
  }
}

function verifyHeaderAuth(fake: FakeS3, method: string, rawPath: string, query: Map<string, string>, request: IncomingMessage, body: Buffer): void {
  const header = String(request.headers.authorization);
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(header);
  if (!match) throw new S3Failure(400, "AuthorizationHeaderMalformed", "The authorization header is malformed");
  const [, credential, signedList, given] = match;
  const date = String(request.headers["x-amz-date"] ?? "");
  const signedAt = parseAmzDate(date);
  const scope = checkScope(fake, credential, date);
  if (Math.abs(Date.now() + fake.skewMs - signedAt) > 15 * 60 * 1000) {
    throw new S3Failure(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.");
  }
  const payloadHash = String(request.headers["x-amz-content-sha256"] ?? "");
  if (!payloadHash) throw new S3Failure(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== hashHex(body)) {
    throw new S3Failure(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  const signedHeaders = signedList.split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!signedHeaders.includes(required)) throw new S3Failure(403, "SignatureDoesNotMatch", `Header "${required}" must be signed`);
  }
  const canonical = canonicalRequestOf(method, rawPath, query, request, signedHeaders, payloadHash);
  if (!sameSignature(expectedSignature(fake, date, scope, canonical), given)) {
    throw new S3Failure(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided");
  }
}
