/** Recognises PostgreSQL errors by SQLSTATE, whichever driver raised them. */

/** True for a unique-constraint violation (`23505`), optionally on one constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint_name?: string; constraint?: string };
  if (e?.code !== "23505") return false;
  return constraint === undefined || e.constraint_name === constraint || e.constraint === constraint;
}

/** The driver's and the socket's codes for a connection that could not be made or was lost. */
const CONNECTION_LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * True when the database could not be reached or went away mid-call (a restart, a failover,
 * a network cut): SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crashed,
 * not accepting connections yet), or the driver's and socket's connection codes. The call did
 * not run, or its transaction rolled back: a retry is safe.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string") return false;
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || CONNECTION_LOST.has(code);
}
