/**
 * The layout rules of STYLE.md that a scan can hold: tRPC's private API in one file
 * (core/trpc_internals.ts, guarded by test/trpc_internals.test.ts), `core/` free of
 * `node:*` imports (it runs under Deno and Bun too), and SQL tagged templates only in
 * `*_queries.ts` modules (migrations are .sql files; the migration runner is exempt), and
 * comments that cite the spec or a docs/ section, never a tracker's issue number (a reader of
 * the repository does not have the tracker).
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

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
});
