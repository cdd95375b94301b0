/**
 * Idempotency keys (spec: Idempotency; model: Stripe's keys and the IETF
 * Idempotency-Key draft). A marked POST with `Idempotency-Key` runs once per owner and
 * key: a retry with the same body gets the first answer back with
 * `Idempotency-Replayed: true`; the same key with a different body is
 * `409 idempotency_key_reuse`; a retry while the first is still running is
 * `409 idempotency_in_flight` with `Retry-After`. Only successful answers are stored:
 * a failed request (validation included) leaves nothing, so a retry runs again.
 */
import type { Context } from "../context.ts";
import type { Principal } from "../request_state/principal.ts";
import type { IdempotentRun } from "../request_state/idempotent_run.ts";
import { ApiError, retryableError } from "../errors.ts";
import { canonicalJson } from "./canonical_json.ts";
import { keyRow, releaseKey, reserveKey, storeAnswer, takeOverExpired } from "./idempotency_queries.ts";

/** Longest key accepted (spec: Constants). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;

/** How long a first request holds its key before a retry may take over (a crashed process). */
export const LEASE_SECONDS = 120;

/** What to do with a request. */
export type IdempotencyDecision =
  | { kind: "none" }
  | { kind: "run"; run: IdempotentRun }
  | { kind: "replay"; status: number | null; body: unknown; headers: Record<string, string> };

/** The request's `Idempotency-Key`, validated, or undefined. */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const key = headers.get("idempotency-key");
  if (key === null) return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError("invalid_parameter", `Invalid "Idempotency-Key": must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  if (!/^[\x20-\x7e]*[\x21-\x7e][\x20-\x7e]*$/.test(key)) {
    throw new ApiError("invalid_parameter", 'Invalid "Idempotency-Key": must be 1 to 64 printable ASCII characters');
  }
  return key;
}

/**
 * The fingerprint: the SHA-256 (hex) of the procedure plus the request as sent,
 * canonicalised. Web Crypto: a body may be up to 1 MiB, where the native digest is
 * about 10x faster than core/crypto/sha256.ts, and this path awaits the database anyway.
 */
export async function fingerprintOf(procedure: string, rawInput: unknown): Promise<string> {
  const text = `${procedure}\n${canonicalJson(rawInput ?? {})}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * The key a call is stored under. A tRPC batch sends one `Idempotency-Key` header for all
 * its calls (docs/architecture.md "Batches"): each call after the first is kept under the
 * key and its position, joined by a tab (a character no header key holds), so two calls of
 * one batch never share a reservation and a retry of the same batch replays each call. The
 * first call, and every call of REST and MCP, is kept under the key itself.
 */
export function storedKeyOf(key: string, batchIndex: number): string {
  return batchIndex === 0 ? key : `${key}\t${batchIndex}`;
}

/** Reserves the key, or answers the replay, or refuses with the spec's 409s. */
export async function beginIdempotent(ctx: Context, principal: Principal, procedure: string, rawInput: unknown, batchIndex = 0): Promise<IdempotencyDecision> {
  const sent = idempotencyKeyOf(ctx.transport.headers);
  if (sent === undefined) return { kind: "none" };
  const key = storedKeyOf(sent, batchIndex);
  const { sql } = ctx.services;
  const ownerId = principal.mainAccountId;
  const fingerprint = await fingerprintOf(procedure, rawInput);
  const fresh = { ownerId, key, recoveryPoint: "started", phaseData: {} };
  if (await reserveKey(sql, { ownerId, key, fingerprint, procedure, leaseSeconds: LEASE_SECONDS })) return { kind: "run", run: fresh };
  const row = await keyRow(sql, ownerId, key);
  // The row vanished between the two statements (its request failed): try once more.
  if (!row) return (await reserveKey(sql, { ownerId, key, fingerprint, procedure, leaseSeconds: LEASE_SECONDS })) ? { kind: "run", run: fresh } : inFlight(1);
  if (row.fingerprint !== fingerprint) {
    throw new ApiError("idempotency_key_reuse", `Idempotency-Key "${sent}" was already used with a different request; use a new key for a new request`);
  }
  if (row.state === "done") return { kind: "replay", status: row.response_status, body: row.response_body, headers: row.response_headers ?? {} };
  if (row.lease_left > 0 || !(await takeOverExpired(sql, ownerId, key, LEASE_SECONDS))) return inFlight(row.lease_left);
  return { kind: "run", run: { ownerId, key, recoveryPoint: row.recovery_point, phaseData: row.phase_data } };
}

/** Stores a successful answer, or releases the key after a failure. */
export async function finishIdempotent(ctx: Context, run: IdempotentRun, answer: { status: number; body: unknown } | undefined): Promise<void> {
  const { sql } = ctx.services;
  if (!answer) return releaseKey(sql, run.ownerId, run.key);
  const headers: Record<string, string> = {};
  for (const [name, value] of ctx.responseHeaders) if (!/ratelimit/i.test(name)) headers[name] = value;
  await storeAnswer(sql, run.ownerId, run.key, { status: answer.status, body: answer.body, headers });
}

function inFlight(leaseLeft: number): never {
  const retryAfter = Math.min(5, Math.max(1, Math.ceil(leaseLeft)));
  throw retryableError("idempotency_in_flight", "A request with this Idempotency-Key is still running; retry shortly to get its answer", retryAfter);
}
