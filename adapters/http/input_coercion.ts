/**
 * Query and path values arrive as strings; procedures validate typed input. Instead
 * of letting trpc-to-openapi coerce by mutating the shared zod schemas (ARCHITECTURE:
 * its `?active=false` became `true`), each route gets a read-only plan, built once
 * from its input schema, that converts only well-formed numbers and `true`/`false`;
 * anything else is passed through for zod to refuse with a clear message.
 */
import { objectShapeOf, unwrapSchema } from "../../core/schema_shape.ts";

type Kind = "number" | "boolean" | "string";

/** How to convert each top-level input key given as a string. */
export type CoercionPlan = Record<string, Kind>;

function kindOf(schema: any): Kind {
  const type = unwrapSchema(schema)?._zod?.def?.type;
  return type === "number" || type === "int" || type === "bigint" ? "number" : type === "boolean" ? "boolean" : "string";
}

/** Builds the plan for a procedure's input parsers (their object shapes). */
export function coercionPlan(inputs: readonly any[]): CoercionPlan {
  const plan: CoercionPlan = {};
  for (const input of inputs) for (const [key, schema] of Object.entries(objectShapeOf(input))) plan[key] = kindOf(schema);
  return plan;
}

/** Converts string values by the plan; values that do not look right stay strings. */
export function coerceStrings(values: Record<string, string>, plan: CoercionPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const kind = plan[key];
    if (kind === "number" && /^-?\d+(\.\d+)?$/.test(value)) out[key] = Number(value);
    else if (kind === "boolean" && (value === "true" || value === "false")) out[key] = value === "true";
    else out[key] = value;
  }
  return out;
}
