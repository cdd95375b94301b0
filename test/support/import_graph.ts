/**
 * The application's import graph, read from the source (static `import`/`export ... from` and
 * `import("...")` of relative `.ts` paths, type-only imports included: a type import ties two
 * files as tightly for a reader as a value import does).
 *
 * The layers (docs/architecture.md "Layout"): `adapters/` and `mod.ts` on top, then `routers/`,
 * then `jobs/` (the task list and the runner), then `core/`. Inside `core/` a folder is an area
 * or a shared mechanism; the folder graph must be acyclic, so an import "runs back up" when it
 * goes from a lower layer to a higher one, or when it closes a cycle between two core folders.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/** One import: from a file to a file, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** The `.ts` files under `folder` (relative to the repository root), depth first. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repositoryRoot, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The file's text without comments, so an import quoted in prose does not count. */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+\.ts)["']/g;

/** Every import between the application's files (core, routers, jobs, adapters, mod.ts). */
export function importEdges(): ImportEdge[] {
  const files = [...["core", "routers", "jobs", "adapters"].flatMap(sourceFiles), "mod.ts"];
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = withoutComments(readFileSync(join(repositoryRoot, from), "utf8"));
    for (const match of text.matchAll(importPattern)) {
      const to = normalize(join(dirname(from), match[1]));
      if (to !== from) edges.push({ from, to });
    }
  }
  return edges;
}

/** The layer of a top folder: higher may import lower, never the reverse. */
function layerOf(path: string): number {
  const top = path.split("/")[0];
  if (top === "core") return 0;
  if (top === "jobs") return 1;
  if (top === "routers") return 2;
  return 3;
}

/**
 * The folder a core file belongs to (`core/dm/x.ts` -> `core/dm`). A file at the root of
 * `core/` (`core/errors.ts`, `core/trpc.ts`) is a unit of its own: the root holds platform
 * pieces of different heights (the error table at the bottom, the procedure builders above
 * the middleware areas they compose).
 */
export function coreFolderOf(path: string): string {
  const parts = path.split("/");
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : path;
}

/** Strongly connected components of a graph with more than one node. */
export function cycles(nodes: Iterable<string>, edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const node of nodes) next.set(node, []);
  for (const [a, b] of edges) {
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a)!.push(b);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return out;
}

/** What the graph says about the layering. */
export interface GraphReport {
  files: number;
  imports: number;
  /** Imports from a lower top folder to a higher one (core -> jobs, jobs -> adapters, ...). */
  upLayer: ImportEdge[];
  /** Imports between two core folders that lie on a cycle of core folders. */
  coreFolderCycleEdges: ImportEdge[];
  /** The cycles of core folders (strongly connected components). */
  coreFolderCycles: string[][];
  /** Cycles of files (strongly connected components), largest first. */
  fileCycles: string[][];
}

/** Measures the graph. */
export function graphReport(edges: ImportEdge[] = importEdges()): GraphReport {
  const files = new Set(edges.flatMap((edge) => [edge.from, edge.to]));
  const upLayer = edges.filter((edge) => layerOf(edge.to) > layerOf(edge.from));
  const coreEdges = edges.filter((edge) => edge.from.startsWith("core/") && edge.to.startsWith("core/"));
  const folderEdges = coreEdges.map((edge) => [coreFolderOf(edge.from), coreFolderOf(edge.to)] as [string, string]).filter(([a, b]) => a !== b);
  const coreFolderCycles = cycles([], folderEdges);
  const cycleOf = new Map<string, number>();
  coreFolderCycles.forEach((component, i) => {
    for (const folder of component) cycleOf.set(folder, i);
  });
  const coreFolderCycleEdges = coreEdges.filter((edge) => {
    const a = coreFolderOf(edge.from);
    const b = coreFolderOf(edge.to);
    return a !== b && cycleOf.has(a) && cycleOf.get(a) === cycleOf.get(b);
  });
  const fileCycles = cycles(
    files,
    edges.map((edge) => [edge.from, edge.to]),
  ).sort((a, b) => b.length - a.length);
  return { files: files.size, imports: edges.length, upLayer, coreFolderCycleEdges, coreFolderCycles, fileCycles };
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const report = graphReport();
  console.log(`files ${report.files}, imports ${report.imports}`);
  console.log(`imports up a layer: ${report.upLayer.length}`);
  for (const edge of report.upLayer) console.log(`  ${edge.from} -> ${edge.to}`);
  console.log(`imports on a cycle of core folders: ${report.coreFolderCycleEdges.length}`);
  for (const component of report.coreFolderCycles) console.log(`  cycle of ${component.length} folders: ${component.join(" ")}`);
  if (process.argv.includes("--edges")) for (const edge of report.coreFolderCycleEdges) console.log(`  ${edge.from} -> ${edge.to}`);
  console.log(`file cycles: ${report.fileCycles.length}, sizes ${report.fileCycles.map((c) => c.length).join(" ")}`);
  if (process.argv.includes("--files")) for (const component of report.fileCycles) console.log(`  ${component.join(" ")}`);
}
