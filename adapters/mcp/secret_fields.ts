/**
 * Whether a tool's answer can hold a `secret` field (docs/mcp.md: secrets are read over REST
 * only), read from its output JSON Schema once when the catalog is built, so only the answers
 * that can hold one are walked on every call (run_tool.ts). An open schema (any object, any
 * value) might hold one, and counts as holding one.
 */
type Json = Record<string, unknown>;

/** True when `schema` (refs inlined) names a `secret` property anywhere or leaves room for one. */
export function mayHoldSecret(schema: unknown): boolean {
  if (schema === true) return true;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
  const node = schema as Json;
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties && "secret" in properties) return true;
  if (properties && Object.values(properties).some(mayHoldSecret)) return true;
  // An object whose other keys are open, or a schema saying nothing of its shape.
  if (
    node.additionalProperties !== undefined &&
    node.additionalProperties !== false &&
    mayHoldSecret(node.additionalProperties === true ? true : node.additionalProperties)
  )
    return true;
  if (isOpen(node)) return true;
  for (const key of ["items", "not"] as const) if (node[key] !== undefined && mayHoldSecret(node[key])) return true;
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"] as const) {
    const branches = node[key];
    if (Array.isArray(branches) && branches.some(mayHoldSecret)) return true;
  }
  return false;
}

/** A schema with no type and no combinators: any value, objects with any keys included. */
function isOpen(node: Json): boolean {
  const shaping = ["type", "properties", "items", "anyOf", "oneOf", "allOf", "enum", "const", "$ref", "not", "prefixItems"];
  return !shaping.some((key) => key in node);
}
