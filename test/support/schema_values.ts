/**
 * Values from the OpenAPI document's JSON schemas, for the conformance sweep: a valid
 * instance of a schema (the base every bad request starts from), and the places in a body
 * a bad value can go. Generated values come from fast-check with a fixed seed, so a
 * failure replays exactly.
 */
import fc from "fast-check";

type Json = Record<string, any>;

/** The seed of every generated value (printed with each failure). */
export const SWEEP_SEED = Number(process.env.SWEEP_SEED ?? 20_261_010);

/** Follows `$ref`s into `document.components`. */
export function resolveSchema(document: Json, schema: Json | undefined): Json {
  let current = schema ?? {};
  for (let depth = 0; depth < 10 && typeof current.$ref === "string"; depth++) {
    const path = current.$ref
      .replace(/^#\//, "")
      .split("/")
      .map((part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
    current = path.reduce((node: Json, part: string) => node?.[part], document) ?? {};
  }
  return current;
}

/**
 * The branches of a schema that is a union (`anyOf`/`oneOf`), or the schema itself. An object
 * whose `oneOf` only picks required fields (exactly one of `handle` or `x_user_id`) has one
 * branch per alternative: the object requiring that field, with the fields only the other
 * alternatives require listed in `x-sweep-excludes`.
 */
export function branchesOf(document: Json, schema: Json): Json[] {
  const resolved = resolveSchema(document, schema);
  const union = resolved.anyOf ?? resolved.oneOf;
  if (union && resolved.properties) {
    const { anyOf: _any, oneOf: _one, ...object } = resolved;
    const required = (branch: Json): string[] => branch.required ?? [];
    return union.map((branch: Json) => ({
      ...object,
      required: [...required(object), ...required(branch)],
      "x-sweep-excludes": union.flatMap(required).filter((name: string) => !required(branch).includes(name)),
    }));
  }
  return union ? union.flatMap((branch: Json) => branchesOf(document, branch)) : [resolved];
}

/** The object branch of a (possibly nullable) schema, if it has one. */
export function objectBranch(document: Json, schema: Json): Json | undefined {
  return branchesOf(document, schema).find((branch) => branch.type === "object" || branch.properties);
}

/** One fixed sample of `arbitrary` for `salt` (the seed plus a stable salt per place). */
export function sampleOf<T>(arbitrary: fc.Arbitrary<T>, salt: string, count = 1): T[] {
  let hash = SWEEP_SEED;
  for (const char of salt) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return fc.sample(arbitrary, { seed: hash, numRuns: count });
}

/** A timestamp a month ahead (every "future" bound the API has is looser). */
export function futureTimestamp(): string {
  return new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * A valid instance of `schema`: required object fields only, the smallest allowed
 * sizes, the first enum value, the schema's `example` when it has one.
 */
export function validInstance(document: Json, schema: Json | undefined, salt = "", options: { all?: boolean } = {}): unknown {
  const branches = branchesOf(document, schema ?? {});
  const chosen = branches.find((branch) => branch.type !== "null") ?? branches[0];
  if (chosen.const !== undefined) return chosen.const;
  if (Array.isArray(chosen.enum)) return chosen.enum[0];
  if (chosen.default !== undefined) return chosen.default;
  if (chosen.example !== undefined) return chosen.example;
  if (chosen.allOf) return Object.assign({}, ...chosen.allOf.map((part: Json) => validInstance(document, part, salt, options)));
  switch (chosen.type) {
    case "string":
      return validString(chosen, salt);
    case "integer":
    case "number":
      return validNumber(chosen);
    case "boolean":
      return false;
    case "array": {
      const count = Math.max(chosen.minItems ?? 0, 0);
      return Array.from({ length: count }, (_, i) => validInstance(document, chosen.items, `${salt}[${i}]`, options));
    }
    case "null":
      return null;
    default: {
      if (!chosen.properties) return chosen.type === "object" ? {} : "sweep";
      const out: Json = {};
      // `all`: every field but `account_id` (the caller picks the account) and those only
      // another `oneOf` alternative requires (branchesOf).
      const excluded = new Set<string>(chosen["x-sweep-excludes"] ?? []);
      const names = options.all ? Object.keys(chosen.properties).filter((name) => name !== "account_id" && !excluded.has(name)) : (chosen.required ?? []);
      for (const name of names) out[name] = validInstance(document, chosen.properties[name], `${salt}.${name}`, options);
      return out;
    }
  }
}

function validString(schema: Json, salt: string): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 40);
  if (schema.format === "date-time") return futureTimestamp();
  if (schema.format === "uri" || schema.format === "url") return "https://example.com/sweep";
  if (schema.format === "email") return "sweep@example.com";
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const fits = sampleOf(fc.stringMatching(pattern), `${salt}:pattern`, 50).find((text) => text.length >= min && text.length <= max);
    if (fits !== undefined) return fits;
  }
  const text = "Sweep text for the conformance check. ".repeat(Math.ceil(Math.max(min, 12) / 38));
  return text.slice(0, Math.max(min, Math.min(max, 12))).padEnd(min, "x");
}

function validNumber(schema: Json): number {
  let value = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
  if (value < -1e9) value = Math.min(1, schema.maximum ?? 1);
  return schema.type === "integer" ? Math.ceil(value) : value;
}

/** A place in a body: the path of keys (and `0` for the first array item) and its schema. */
export interface BodyField {
  path: (string | number)[];
  schema: Json;
  required: boolean;
  /** The object holding the field refuses unknown keys (`additionalProperties: false`). */
  closed: boolean;
}

/** Every field reachable in `schema` through objects and arrays (first item), depth first. */
export function bodyFields(document: Json, schema: Json | undefined, path: (string | number)[] = [], depth = 0): BodyField[] {
  if (!schema || depth > 4) return [];
  const fields: BodyField[] = [];
  const object = objectBranch(document, schema);
  if (object?.properties) {
    for (const [name, child] of Object.entries<Json>(object.properties)) {
      const here = [...path, name];
      fields.push({ path: here, schema: child, required: (object.required ?? []).includes(name), closed: object.additionalProperties === false });
      fields.push(...bodyFields(document, child, here, depth + 1));
    }
  }
  const array = branchesOf(document, schema).find((branch) => branch.type === "array" && branch.items);
  if (array) {
    const here = [...path, 0];
    fields.push({ path: here, schema: array.items, required: false, closed: false });
    fields.push(...bodyFields(document, array.items, here, depth + 1));
  }
  return fields;
}

/** The objects in `schema` (the body itself included) and whether each refuses unknown keys. */
export function bodyObjects(document: Json, schema: Json | undefined): { path: (string | number)[]; closed: boolean }[] {
  const top = objectBranch(document, schema ?? {});
  const objects = top ? [{ path: [] as (string | number)[], closed: top.additionalProperties === false }] : [];
  for (const field of bodyFields(document, schema)) {
    const object = objectBranch(document, field.schema);
    if (object?.properties) objects.push({ path: field.path, closed: object.additionalProperties === false });
  }
  return objects;
}

/**
 * `base` with `value` at `path` (`undefined` removes it). Missing parents are built from
 * their schemas' valid instances, so a nested field is reached through a valid parent.
 */
export function withValue(document: Json, rootSchema: Json, base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Json;
  let node: any = root;
  let schema: Json | undefined = rootSchema;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    schema = childSchema(document, schema, key);
    // The parent must be the kind the next key needs: an array for an index, an object for a
    // name (a field that is either, like `auto_dm.triggers`, is built from the matching branch).
    const wantArray = typeof path[i + 1] === "number";
    const parent = node[key];
    if (parent === undefined || parent === null || typeof parent !== "object" || Array.isArray(parent) !== wantArray) {
      const branch = schema && !wantArray ? (objectBranch(document, schema) ?? schema) : schema;
      node[key] = wantArray ? [] : (validInstance(document, branch, path.slice(0, i + 1).join(".")) ?? {});
      if (typeof node[key] !== "object" || node[key] === null || Array.isArray(node[key])) node[key] = wantArray ? [] : {};
    }
    node = node[key];
  }
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(node) && typeof last === "number") node.splice(last, 1);
    else delete node[last];
  } else node[last] = value;
  return root;
}

function childSchema(document: Json, schema: Json | undefined, key: string | number): Json | undefined {
  if (!schema) return undefined;
  if (typeof key === "number") return branchesOf(document, schema).find((branch) => branch.type === "array")?.items;
  return objectBranch(document, schema)?.properties?.[key];
}

/** A readable place name: `parts[0].text`. */
export function fieldName(path: (string | number)[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${part}`)).join("");
}
