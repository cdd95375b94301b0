/**
 * Ids of the main user's real objects for an id-addressed operation, found without a
 * per-endpoint table: GET the collection the path sits under with the owner's key and
 * take the first listed object's `id` (for a nested collection, the first parent under
 * which it lists something); a nested collection with no GET of its own is read from the
 * parent object's field of its name (`/v1/signals/agents/{id}/signals/{signalId}` -> the
 * listed agent's `signals`); failing that, look in the demo world for a fixture named
 * after the collection (`/v1/context/products/{id}` -> `world.products`).
 */
import type { DemoWorld } from "../../core/demo/demo_world.ts";
import type { Transport } from "./harness.ts";
import { enumValuesOf, type SweepOperation } from "./openapi_sweep.ts";

/** Values for the path parameters of `operation` naming the owner's objects, or an error saying what is missing. */
export async function realPathIds(
  transport: Transport,
  operation: SweepOperation,
  ownerKey: string,
  world: DemoWorld,
  known: SweepOperation[],
): Promise<Record<string, string>> {
  const segments = operation.path.split("/");
  let missing = "";
  // Depth first: a nested collection (`/v1/contacts/{id}/notes`) may be empty under the first
  // parent listed, so the parent's next objects are tried before giving up.
  const resolve = async (from: number, values: Record<string, string>, parent?: unknown): Promise<Record<string, string> | undefined> => {
    const i = segments.findIndex((segment, index) => index >= from && /^\{.+\}$/.test(segment));
    if (i < 0) return values;
    const name = segments[i].slice(1, -1);
    const parameter = operation.parameters.find((item) => item.in === "path" && item.name === name);
    const fixed = parameter && enumValuesOf(parameter);
    // A fixed value (`{kind}`), not an object: any of them names the owner's own list.
    if (fixed) return resolve(i + 1, { ...values, [name]: String(fixed[0]) }, parent);
    // The collection as documented (`/v1/contact-lists/{id}/members`) and as requested, with the ids found so far.
    const template = segments.slice(0, i).join("/");
    const collection = template.replace(/\{([^}]+)\}/g, (_, parameter: string) => values[parameter]);
    const listed = (await fromCollection(transport, template, collection, ownerKey, known)) ?? fromParent(parent, segments[i - 1]);
    // An area's key may hold it under the path's area (`/v1/dm/campaigns/{id}` -> `world.dm`).
    const fixture = fromWorld(world, segments[i - 1]) ?? (i >= 3 ? fromWorld(world, segments[i - 2]) : undefined);
    const candidates = listed ?? (fixture === undefined ? [] : [{ id: fixture }]);
    for (const item of candidates.slice(0, MAX_CANDIDATES)) {
      const found = await resolve(i + 1, { ...values, [name]: String(item.id) }, item);
      if (found) return found;
    }
    missing ||= `GET ${collection} lists nothing and the demo world has no "${segments[i - 1]}"`;
    return undefined;
  };
  const values = await resolve(0, {});
  if (!values) throw new Error(`No real id for ${operation.label}: ${missing}`);
  return values;
}

/**
 * Objects of a parent collection tried before a nested one is declared empty: a whole page
 * of 100 (the demo's contacts include its signal agent's leads, so the one with a note is
 * not among the first 20).
 */
const MAX_CANDIDATES = 100;

/** An object with an id, as a collection lists it. */
type Listed = { id: unknown } & Record<string, unknown>;

/** The objects with an id a documented collection lists (undefined when it is not a documented GET, or lists nothing). */
async function fromCollection(transport: Transport, template: string, collection: string, key: string, known: SweepOperation[]): Promise<Listed[] | undefined> {
  const listing = known.find((operation) => operation.method === "GET" && operation.path === template);
  if (!listing) return undefined;
  // The largest page (spec Constants: page size 1 to 100) when the collection pages.
  const pages = listing.parameters.some((parameter) => parameter.in === "query" && parameter.name === "limit");
  const answer = await transport.request("GET", pages ? `${collection}?limit=100` : collection, { key });
  if (answer.status !== 200) throw new Error(`GET ${collection} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  return withIds(answer.body?.data);
}

/** The objects with an id under the parent object's field named after a nested collection (`signals` of an agent). */
function fromParent(parent: unknown, segment: string): Listed[] | undefined {
  if (!parent || typeof parent !== "object") return undefined;
  return withIds((parent as Record<string, unknown>)[segment.replace(/-/g, "_")]);
}

/** The items of `value` that carry an `id`, or undefined when none does. */
function withIds(value: unknown): Listed[] | undefined {
  const items = Array.isArray(value) ? value : [];
  const listed = items.filter((item): item is Listed => item?.id !== undefined);
  return listed.length > 0 ? listed : undefined;
}

/** The first scalar under the world's key for a collection segment (`scheduled-posts` -> `scheduled_posts`). */
function fromWorld(world: DemoWorld, segment: string): unknown {
  const value = (world as unknown as Record<string, unknown>)[segment.replace(/-/g, "_")];
  return firstScalar(value);
}

function firstScalar(value: unknown): unknown {
  if (typeof value === "string" || typeof value === "number") return value;
  if (Array.isArray(value)) return value.map(firstScalar).find((item) => item !== undefined);
  if (value && typeof value === "object")
    return Object.values(value)
      .map(firstScalar)
      .find((item) => item !== undefined);
  return undefined;
}
