/**
 * Text PostgreSQL can store. Its `text` refuses NUL, and a lone UTF-16 surrogate has no
 * UTF-8 form, so either one in any input string was a 500 (tag names, article
 * titles, context fields). Every key request's raw input passes `assertStorableText`
 * before validation, so each field is refused with `400 invalid_parameter` naming it,
 * from this one place rather than per field.
 */
import { ApiError } from "./errors.ts";

// NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL cannot store in text
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws `400 invalid_parameter` for the first string (value or key) in `input` that PostgreSQL cannot store. */
export function assertStorableText(input: unknown): void {
  const path = unstorablePath(input, "", 0);
  if (path === undefined) return;
  const where = path === "" ? "Invalid request" : `Invalid "${path}"`;
  throw new ApiError("invalid_parameter", `${where}: must not contain NUL characters or unpaired UTF-16 surrogates`);
}

function unstorablePath(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : undefined;
  // JSON.parse output is a tree; the depth bound only guards against a cyclic object from an embedder.
  if (value === null || typeof value !== "object" || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorablePath(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path === "" ? key : `${path}.${key}`;
    if (UNSTORABLE.test(key)) return here;
    const found = unstorablePath(item, here, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
