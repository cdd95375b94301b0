/**
 * The request id (`X-Request-Id`): the client's when well formed, so a caller can follow
 * its request through our logs; otherwise a new one. Well formed is 1 to 128 characters
 * of `A-Z a-z 0-9 . _ : -` (UUIDs, ULIDs, trace ids, `host:seq`): nothing a log reader or
 * a shell could misread, and never long enough to bloat a log line.
 */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id to use for a request that sent `header` (the header's value, or null). */
export function requestIdFor(header: string | null): string {
  return header !== null && WELL_FORMED.test(header) ? header : crypto.randomUUID();
}
