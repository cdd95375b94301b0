/**
 * Regenerates x_openapi_subset.json: the operations of X's own OpenAPI document (repository
 * xdevplatform/docs, file openapi.json, served at https://api.x.com/2/openapi.json) that
 * Threadline calls, with every component they reference, so the fake X server can check each
 * request it receives against what X documents (x_contract.ts). Run it after X's document
 * changes or when the adapter calls a new operation (add it to OPERATIONS):
 *
 *   node --import tsx test/support/fake_x_api/make_x_openapi_subset.ts <xdevplatform/docs git dir or checkout>
 *   npx biome check --write test/support/fake_x_api/x_openapi_subset.json
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Every operation the X adapter (adapters/x/x_api/, adapters/x/x_oauth_client.ts) calls, as `METHOD path` of X's document. */
export const OPERATIONS = [
  "GET /2/tweets",
  "POST /2/tweets",
  "GET /2/tweets/{id}",
  "DELETE /2/tweets/{id}",
  "GET /2/tweets/search/recent",
  "GET /2/tweets/{id}/quote_tweets",
  "GET /2/tweets/{id}/retweeted_by",
  "GET /2/tweets/{id}/liking_users",
  "GET /2/users",
  "GET /2/users/by",
  "GET /2/users/by/username/{username}",
  "GET /2/users/me",
  "GET /2/users/{id}",
  "GET /2/users/{id}/tweets",
  "GET /2/users/{id}/mentions",
  "GET /2/users/{id}/followers",
  "GET /2/users/{id}/following",
  "GET /2/users/{id}/owned_lists",
  "POST /2/users/{id}/retweets",
  "DELETE /2/users/{id}/retweets/{source_tweet_id}",
  "GET /2/lists/{id}",
  "GET /2/lists/{id}/members",
  "GET /2/lists/{id}/tweets",
  "POST /2/dm_conversations/with/{participant_id}/messages",
  "GET /2/dm_events",
  "POST /2/articles/draft",
  "POST /2/articles/{article_id}/publish",
  "POST /2/media/upload/initialize",
  "POST /2/media/upload/{id}/append",
  "POST /2/media/upload/{id}/finalize",
  "GET /2/media/upload",
  "POST /2/media/metadata",
  // threadline x check's cheap app-only read (core/accounts/x_check.ts).
  "GET /2/usage/tweets",
] as const;

type Json = any;

/** The subset of `document` holding `operations` and the components they reach, with a note of where it came from. */
export function subsetOf(document: Json, operations: readonly string[], source: Record<string, string>): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const wanted = new Set<string>();
  const collect = (node: Json) => {
    if (Array.isArray(node)) for (const item of node) collect(item);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") wanted.add(value);
        else collect(value);
      }
    }
  };
  for (const operation of operations) {
    const [method, path] = operation.split(" ");
    const found = document.paths?.[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`X's document has no operation "${operation}"`);
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = found;
    collect(found);
  }
  const components: Record<string, Record<string, Json>> = { securitySchemes: document.components.securitySchemes };
  const done = new Set<string>();
  while (wanted.size > 0) {
    const ref = wanted.values().next().value as string;
    wanted.delete(ref);
    if (done.has(ref)) continue;
    done.add(ref);
    const [, , kind, name] = ref.split("/");
    const component = document.components?.[kind]?.[name];
    if (!ref.startsWith("#/components/") || component === undefined) throw new Error(`Cannot resolve "${ref}"`);
    components[kind] ??= {};
    components[kind][name] = component;
    collect(component);
  }
  const sorted = (record: Record<string, Json>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: document.openapi,
    info: { ...document.info, "x-threadline-subset": source },
    servers: document.servers,
    paths: sorted(paths),
    components: Object.fromEntries(Object.entries(components).map(([kind, record]) => [kind, sorted(record)])),
  };
}

function main(from: string | undefined): void {
  if (!from) throw new Error("Usage: make_x_openapi_subset.ts <xdevplatform/docs git dir or checkout>");
  const git = (...args: string[]) => execFileSync("git", ["-C", from, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const [commit, committedAt] = git("log", "-1", "--format=%H %cI").trim().split(" ");
  const document = JSON.parse(git("show", `${commit}:openapi.json`));
  const subset = subsetOf(document, OPERATIONS, {
    note: "The operations Threadline calls, cut from X's OpenAPI document by test/support/fake_x_api/make_x_openapi_subset.ts",
    repository: "https://github.com/xdevplatform/docs",
    file: "openapi.json",
    commit,
    committedAt,
    generatedAt: new Date().toISOString().slice(0, 10),
  });
  const target = fileURLToPath(new URL("./x_openapi_subset.json", import.meta.url));
  writeFileSync(target, `${JSON.stringify(subset, null, 2)}\n`);
  console.log(
    `Wrote ${OPERATIONS.length} operations and ${Object.values(subset.components).reduce((n: number, c: any) => n + Object.keys(c).length, 0)} components to ${target}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv[2]);
