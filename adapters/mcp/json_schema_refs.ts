/**
 * MCP tools carry self-contained JSON Schemas (a client validates arguments and
 * results without the OpenAPI document), so `#/components/...` references are
 * replaced by what they point to. A reference met again inside itself (a recursive
 * schema) becomes `{}`: any value, rather than an endless expansion.
 */
type Json = Record<string, any>;

/** A copy of `schema` with every local `$ref` of `document` replaced by its target. */
export function inlineRefs(document: Json, schema: Json): Json {
  return expand(document, schema, new Set()) as Json;
}

function expand(document: Json, value: unknown, seen: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => expand(document, item, seen));
  if (value === null || typeof value !== "object") return value;
  const node = value as Json;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    if (seen.has(ref)) return {};
    const { $ref: _ref, ...siblings } = node;
    const target = expand(document, resolve(document, ref), new Set([...seen, ref])) as Json;
    return { ...target, ...(expand(document, siblings, seen) as Json) };
  }
  const out: Json = {};
  for (const [key, item] of Object.entries(node)) out[key] = expand(document, item, seen);
  return out;
}

function resolve(document: Json, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`Cannot inline the non-local reference "${ref}"`);
  let target: any = document;
  for (const part of ref.slice(2).split("/")) target = target?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  if (target === undefined) throw new Error(`Cannot resolve "${ref}"`);
  return target;
}
