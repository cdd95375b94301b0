/**
 * Bodies that take exactly one of several fields (`POST /v1/contact-lists/{id}/members`: a
 * `handle` or an `x_user_id`; supplement: Contact Lists). Declared once in a procedure's meta
 * (`exactlyOneOf`): the request path refuses any other body here, and the OpenAPI document
 * states it as `oneOf` alternatives, so clients and the conformance sweep read the same rule.
 */
import { ApiError } from "./errors.ts";

/** Throws `400 invalid_parameter` unless `input` holds exactly one of `fields`. */
export function assertExactlyOneOf(input: unknown, fields: readonly string[]): void {
  const body = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const sent = fields.filter((field) => body[field] !== undefined && body[field] !== null);
  if (sent.length === 1) return;
  const names = fields.map((field) => `"${field}"`).join(" or ");
  throw new ApiError("invalid_parameter", `Invalid "${sent[1] ?? fields[0]}": send exactly one of ${names}`);
}

/** The document's form of the rule: one `required` alternative per field. */
export function exactlyOneOfSchema(fields: readonly string[]): { oneOf: { required: string[] }[] } {
  return { oneOf: fields.map((field) => ({ required: [field] })) };
}
