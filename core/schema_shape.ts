/** Looks through the wrappers zod puts around a schema, for the adapters and the docs. */

/** The schema inside `optional`, `default`, `prefault`, `nullable` and `pipe` (its input side) wrappers. */
export function unwrapSchema(schema: any): any {
  let current = schema;
  for (let depth = 0; depth < 10 && current?._zod; depth++) {
    const def = current._zod.def;
    if (def.type === "optional" || def.type === "default" || def.type === "prefault" || def.type === "nullable") current = def.innerType;
    else if (def.type === "pipe") current = def.in;
    else break;
  }
  return current;
}

/** The fields of an object schema, however wrapped, or `{}`. */
export function objectShapeOf(schema: any): Record<string, unknown> {
  const inner = unwrapSchema(schema);
  return inner?._zod?.def?.type === "object" ? inner._zod.def.shape : {};
}
