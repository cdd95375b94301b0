/**
 * The layout rules of STYLE.md that a scan can hold: tRPC's private API in one file
 * (core/trpc_internals.ts, guarded by test/trpc_internals.test.ts), `core/` free of
 * `node:*` imports (it runs under Deno and Bun too), and SQL tagged templates only in
 * `*_queries.ts` modules (migrations are .sql files; the migration runner is exempt), and
 * comments that cite the spec or a docs/ section, never a tracker's issue number (a reader of
 * the repository does not have the tracker), and the low folders under the context importing
 * no area.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { coreFolderOf, importEdges } from "./support/import_graph.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The file's text without comments, so a rule quoted in prose does not count. */
function code(path: string): string {
  return readFileSync(join(root, path), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The comments of a file: block comments and `//` line comments, with their line numbers. */
function comments(path: string): { line: number; text: string }[] {
  const source = readFileSync(join(root, path), "utf8");
  const found: { line: number; text: string }[] = [];
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|(?<=^|[^:"'`\\])\/\/.*$/gm)) {
    const first = source.slice(0, match.index).split("\n").length;
    for (const [offset, text] of match[0].split("\n").entries()) found.push({ line: first + offset, text });
  }
  return found;
}

const appFolders = ["core", "routers", "adapters", "jobs"];
const appFiles = [...appFolders.flatMap(sourceFiles), "mod.ts"];

/**
 * The folders below every area (docs/architecture.md "Layout"): the ports and the request
 * state core/context.ts carries, the plan table a principal names, and the person shape
 * every area stores. Areas import them and core/context.ts; they import neither.
 */
const lowFolders = ["core/ports", "core/request_state", "core/plans", "core/people"];
/** The ports that have folders of their own; as low as the folders above. */
const portFolders = ["core/db", "core/model", "core/network", "core/outbound", "core/telemetry"];

/** Every file `start` reaches through its imports, itself excluded. */
function reachedFrom(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    for (const to of next.get(queue.pop() as string) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

describe("code rules (STYLE.md)", () => {
  test("tRPC's private API (unstable-core-do-not-import, _def) appears only in core/trpc_internals.ts", () => {
    const offenders = appFiles
      .filter((path) => path !== join("core", "trpc_internals.ts"))
      .filter((path) => {
        const text = code(path);
        return /unstable-core-do-not-import/.test(text) || /\b_def\b/.test(text);
      });
    assert.deepEqual(offenders, []);
  });

  test("core/ imports no node:* module", () => {
    const offenders = sourceFiles("core").filter((path) => /(from|import)\s*\(?\s*["']node:/.test(code(path)));
    assert.deepEqual(offenders, [], "core/ must use web standards (crypto.subtle, TextEncoder, URL) or a port");
  });

  test("SQL tagged templates appear only in *_queries.ts modules", () => {
    // A tagged template whose tag is a query handle: `sql`, `tx`, `ctx.services.sql`, with
    // or without a row type (`sql<Row[]>`).
    const sqlTag = /\b(sql|tx)\s*(<[^`;]*>)?\s*`/;
    const exempt = new Set([join("core", "db", "migrate.ts")]);
    const offenders = appFiles
      .filter((path) => !path.endsWith("_queries.ts") && !exempt.has(path))
      .filter((path) => sqlTag.test(code(path)))
      .map((path) => relative(root, join(root, path)));
    assert.deepEqual(offenders, []);
  });

  test("comments cite the spec or a docs/ section, never an issue number", () => {
    // A tracker reference ("issue" or "stop" and a number, "#" and a number) a reader cannot follow.
    const issueNumber = /\b(issues?|stops?)\s+#?\d+|\(#\d+\)|(^|\s)#\d+\b/i;
    const files = [...["core", "routers", "adapters", "jobs", "test", "bench"].flatMap(sourceFiles), "mod.ts"];
    const offenders = files.flatMap((path) =>
      comments(path)
        .filter(({ text }) => issueNumber.test(text))
        .map(({ line, text }) => `${path}:${line}: ${text.trim()}`),
    );
    assert.deepEqual(offenders, []);
  });

  test("the low folders and core/context.ts import no area folder; the low folders import no core/context.ts", () => {
    const next = new Map<string, string[]>();
    for (const edge of importEdges()) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    const low = new Set([...lowFolders, ...portFolders]);
    // A file at the root of core/ is a unit of its own (core/errors.ts, core/clock.ts): low
    // unless it reaches an area, which the walk sees through it.
    const isArea = (path: string) => coreFolderOf(path) !== path && !low.has(coreFolderOf(path));
    const starts = [...lowFolders.flatMap(sourceFiles), join("core", "context.ts")];
    const offenders: string[] = [];
    for (const start of starts) {
      for (const reached of reachedFrom(start, next)) {
        const upward =
          isArea(reached) || reached === join("core", "trpc.ts") || (start !== join("core", "context.ts") && reached === join("core", "context.ts"));
        if (upward) offenders.push(`${start} reaches ${reached}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  test("no area imports core/trpc.ts: it composes the platform middleware above the areas", () => {
    // core/docs builds the OpenAPI document from the procedures' meta, above every area.
    const offenders = importEdges()
      .filter((edge) => edge.to === join("core", "trpc.ts") && edge.from.startsWith("core/") && coreFolderOf(edge.from) !== join("core", "docs"))
      .map((edge) => edge.from);
    assert.deepEqual(offenders, []);
  });
});
