/** Recognises PostgreSQL errors by SQLSTATE, whichever driver raised them. */

/** True for a unique-constraint violation (`23505`), optionally on one constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint_name?: string; constraint?: string };
  if (e?.code !== "23505") return false;
  return constraint === undefined || e.constraint_name === constraint || e.constraint === constraint;
}
