/**
 * Ids of the main user's real objects for an id-addressed operation, found without a
 * per-endpoint table: GET the collection the path sits under with the owner's key and
 * take the first listed object's `id`; failing that, look in the demo world for a
 * fixture named after the collection (`/v1/context/products/{id}` -> `world.products`).
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
  const values: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const match = /^\{(.+)\}$/.exec(segments[i]);
    if (!match) continue;
    const parameter = operation.parameters.find((item) => item.in === "path" && item.name === match[1]);
    const fixed = parameter && enumValuesOf(parameter);
    if (fixed) {
      // A fixed value (`{kind}`), not an object: any of them names the owner's own list.
      values[match[1]] = String(fixed[0]);
      continue;
    }
    const collection = segments
      .slice(0, i)
      .join("/")
      .replace(/\{([^}]+)\}/g, (_, name: string) => values[name]);
    const id = (await fromCollection(transport, collection, ownerKey, known)) ?? fromWorld(world, segments[i - 1]);
    if (id === undefined) throw new Error(`No real id for ${operation.label}: GET ${collection} lists nothing and the demo world has no "${segments[i - 1]}"`);
    values[match[1]] = String(id);
  }
  return values;
}

async function fromCollection(transport: Transport, collection: string, key: string, known: SweepOperation[]): Promise<unknown> {
  const listed = known.some((operation) => operation.method === "GET" && operation.path === collection);
  if (!listed) return undefined;
  const answer = await transport.request("GET", collection, { key });
  if (answer.status !== 200) throw new Error(`GET ${collection} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  const items = Array.isArray(answer.body?.data) ? answer.body.data : [];
  return items.find((item: any) => item?.id !== undefined)?.id;
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
