/**
 * AWS Signature Version 4 for S3, written with node:crypto (no AWS SDK): presigned URLs
 * (query-string auth) and signed request headers (AWS docs: "Authenticating Requests:
 * Using Query Parameters" and "Using the Authorization Header").
 */
import { createHash, createHmac } from "node:crypto";

/** Who signs, and for which region and service. */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `s3` for S3. */
  service: string;
}

/** The payload hash of a presigned URL: the body is not known when the URL is made. */
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

const ALGORITHM = "AWS4-HMAC-SHA256";

/** Hex SHA-256 of `data`. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** RFC 3986 encoding as SigV4 wants it: everything but `A-Za-z0-9-._~` (and `/` when `keepSlash`). */
export function uriEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, "/") : encoded;
}

/** `20130524T000000Z`. */
export function amzDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/**
 * A presigned URL for `method` on `url` valid `expiresSeconds` from `at`. `headers` are
 * signed too (the client must send them exactly); `host` always is.
 */
export function presignUrl(input: {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  expiresSeconds: number;
  at: Date;
  credentials: SigV4Credentials;
}): string {
  const { credentials } = input;
  const date = amzDate(input.at);
  const scope = `${date.slice(0, 8)}/${credentials.region}/${credentials.service}/aws4_request`;
  const headers = lowerHeaders({ ...input.headers, host: input.url.host });
  const signedHeaders = Object.keys(headers).sort().join(";");
  const url = new URL(input.url);
  url.searchParams.set("X-Amz-Algorithm", ALGORITHM);
  url.searchParams.set("X-Amz-Credential", `${credentials.accessKeyId}/${scope}`);
  url.searchParams.set("X-Amz-Date", date);
  url.searchParams.set("X-Amz-Expires", String(input.expiresSeconds));
  url.searchParams.set("X-Amz-SignedHeaders", signedHeaders);
  const canonical = canonicalRequest(input.method, url, headers, UNSIGNED_PAYLOAD);
  const signature = sign(credentials, date, scope, canonical);
  // The query is written in canonical order with SigV4's encoding, so the URL carries exactly what was signed.
  return `${url.origin}${url.pathname}?${canonicalQuery(url)}&X-Amz-Signature=${signature}`;
}

/**
 * The headers that authorize a request: `x-amz-date`, `x-amz-content-sha256` and
 * `authorization` (with `host` and every header given signed).
 */
export function signHeaders(input: {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  payloadHash: string;
  at: Date;
  credentials: SigV4Credentials;
}): Record<string, string> {
  const { credentials } = input;
  const date = amzDate(input.at);
  const scope = `${date.slice(0, 8)}/${credentials.region}/${credentials.service}/aws4_request`;
  const extra = { "x-amz-date": date, "x-amz-content-sha256": input.payloadHash };
  const headers = lowerHeaders({ ...input.headers, ...extra, host: input.url.host });
  const signedHeaders = Object.keys(headers).sort().join(";");
  const signature = sign(credentials, date, scope, canonicalRequest(input.method, input.url, headers, input.payloadHash));
  return {
    ...extra,
    authorization: `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`,
  };
}

function lowerHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, " ")]));
}

/** Query parameters sorted by encoded name then value, each SigV4-encoded. */
function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

function canonicalRequest(method: string, url: URL, headers: Record<string, string>, payloadHash: string): string {
  const names = Object.keys(headers).sort();
  // S3 signs the path as sent (its segments are already encoded once, never twice).
  return [method, url.pathname || "/", canonicalQuery(url), names.map((name) => `${name}:${headers[name]}\n`).join(""), names.join(";"), payloadHash].join(
    "\n",
  );
}

function sign(credentials: SigV4Credentials, date: string, scope: string, canonical: string): string {
  const stringToSign = [ALGORITHM, date, scope, sha256Hex(canonical)].join("\n");
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  const dateKey = hmac(`AWS4${credentials.secretAccessKey}`, date.slice(0, 8));
  const signingKey = hmac(hmac(hmac(dateKey, credentials.region), credentials.service), "aws4_request");
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex");
}
