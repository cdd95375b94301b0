/**
 * The layout rules of STYLE.md that a scan can hold: tRPC's private API in one file
 * (core/trpc_internals.ts, guarded by test/trpc_internals.test.ts), `core/` free of
 * `node:*` imports (it runs under Deno and Bun too), SQL tagged templates only in
 * `*_queries.ts` modules (migrations are .sql files; the migration runner is exempt),
 * comments that cite the spec or a docs/ section, never a tracker's issue number (a reader of
 * the repository does not have the tracker), and the layout of jobs and events
 * (docs/architecture.md "Jobs and publishing", "Events and webhooks"): each area owns its job
 * kinds and event emitters, the queue and the outbox import no area, and the task list sits on
 * top where only the composition root reads it; the low folders under the context import no
 * area; the layers (imports run down, core folders form no cycle, no file cycle longer than 2);
 * and an endpoint's input written once, as its zod schema (no hand-written `...Input` type).
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { coreFolderOf, graphReport, importEdges, sourceFiles, withoutComments } from "./support/import_graph.ts";
import { dealFiles, shardFiles, testFiles } from "./support/shards.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The file's text without comments, so a rule quoted in prose does not count. */
function code(path: string): string {
  return withoutComments(readFileSync(join(root, path), "utf8"));
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
/**
 * The shared mechanisms (STYLE.md: "written once, in a low folder of its own"): time
 * lengths and periods, leases, bounded concurrency, the search stop words. As low as the
 * folders above: every area may use them, they use no area.
 */
const mechanismFolders = ["core/time", "core/leases", "core/concurrency", "core/text"];

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
    const low = new Set([...lowFolders, ...portFolders, ...mechanismFolders]);
    // A file at the root of core/ is a unit of its own (core/errors.ts, core/clock.ts): low
    // unless it reaches an area, which the walk sees through it.
    const isArea = (path: string) => coreFolderOf(path) !== path && !low.has(coreFolderOf(path));
    const starts = [...[...lowFolders, ...mechanismFolders].flatMap(sourceFiles), join("core", "context.ts")];
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

  test("imports run down the layers (adapters and mod.ts, routers, jobs, core), core folders form no cycle, and no cycle of files is longer than 2", () => {
    const report = graphReport();
    assert.deepEqual(
      report.upLayer.map((edge) => `${edge.from} -> ${edge.to}`),
      [],
    );
    assert.deepEqual(report.coreFolderCycles, []);
    assert.deepEqual(
      report.fileCycles.filter((cycle) => cycle.length > 2),
      [],
    );
  });

  test("no area imports core/trpc.ts: it composes the platform middleware above the areas", () => {
    // core/docs builds the OpenAPI document from the procedures' meta, above every area.
    const offenders = importEdges()
      .filter((edge) => edge.to === join("core", "trpc.ts") && edge.from.startsWith("core/") && coreFolderOf(edge.from) !== join("core", "docs"))
      .map((edge) => edge.from);
    assert.deepEqual(offenders, []);
  });

  test("an endpoint's input is its zod schema: no hand-written ...Input interface or object type in core/ or routers/", () => {
    // Types named `...Input` that are not an endpoint's input, so no zod schema parses them:
    // each is what the core hands a port or takes from an embedder, never a request body.
    const notEndpointInputs = new Map<string, string>([
      // The model port's task payloads (core/model/model_task.ts), built by the core from
      // the request and stored context; an endpoint's own input is its schema in its area.
      ...[
        "RephraseInput",
        "InlineEditInput",
        "FactcheckInput",
        "RemixInput",
        "DraftInput",
        "ReplyDraftInput",
        "OutreachInput",
        "KeywordSuggestionInput",
        "IcpExpansionInput",
        "StyleGuideInput",
        "LeadScoringInput",
        "ProfileResearchInput",
        "DatasetRefineInput",
      ].map((name): [string, string] => [name, join("core", "model", "task_inputs.ts")]),
      // The social network port's writes (core/network/social_network.ts).
      ...["PublishPostInput", "PublishThreadInput", "PublishArticleInput", "SendDmInput", "UploadMediaInput"].map((name): [string, string] => [
        name,
        join("core", "network", "social_network.ts"),
      ]),
      // The embedder's admin API (core/admin/admin_api.ts) and the demo world: no HTTP endpoint.
      ["AccountInput", join("core", "accounts", "users.ts")],
      ["UserInput", join("core", "accounts", "users.ts")],
    ]);
    const handWritten = /\b(?:interface\s+([A-Za-z0-9_]*Input)\b|type\s+([A-Za-z0-9_]*Input)\s*=\s*\{)/g;
    const offenders = [...sourceFiles("core"), ...sourceFiles("routers")].flatMap((path) =>
      [...code(path).matchAll(handWritten)]
        .map((match) => match[1] ?? match[2])
        .filter((name) => notEndpointInputs.get(name) !== path)
        .map((name) => `${path}: ${name}`),
    );
    assert.deepEqual(offenders, [], "declare the input once as a zod schema in the area and use z.infer of it");
  });
});

describe("jobs and events live with their areas (STYLE.md: an area owns its job handlers and event emitters)", () => {
  const edges = importEdges();
  const importsOf = (from: (path: string) => boolean) => edges.filter((edge) => from(edge.from));
  const inFolder = (folder: string) => (path: string) => path.startsWith(`${folder}/`);
  /** A file of core/'s root (`core/clock.ts`, `core/errors.ts`): platform pieces, no area. */
  const coreRoot = (path: string) => path.startsWith("core/") && path.split("/").length === 2;
  /** A file declaring a task table: an area's job kinds as data. */
  const taskFiles = new Set(appFiles.filter((path) => /\bsatisfies\s+JobTasks\b/.test(code(path))));
  taskFiles.add(join("jobs", "task_list.ts"));

  test("core/events holds only the outbox: record, sequence, read (the list and the stream's feed and slots), payload, schema, types, settings, retention", () => {
    const outbox = [
      "event_feed.ts",
      "event_payload.ts",
      "event_schema.ts",
      "event_settings.ts",
      "event_settings_queries.ts",
      "event_types.ts",
      "events_jobs.ts",
      "events_queries.ts",
      "read_events.ts",
      "record_event.ts",
      "sequence_events.ts",
      "stream_slots.ts",
      "stream_slots_queries.ts",
    ];
    const files = readdirSync(join(root, "core", "events")).sort();
    assert.deepEqual(
      files.filter((name) => !outbox.includes(name)),
      [],
      "an event emitter lives in the area whose change it records",
    );
  });

  test("core/events imports no area folder (only core/db, core/jobs, the ports, the mechanisms and core/'s root files)", () => {
    const allowed = (to: string) =>
      inFolder("core/events")(to) ||
      inFolder("core/db")(to) ||
      inFolder("core/ports")(to) ||
      inFolder("core/jobs")(to) ||
      coreRoot(to) ||
      mechanismFolders.some((folder) => inFolder(folder)(to));
    const offenders = importsOf(inFolder("core/events")).filter((edge) => !allowed(edge.to));
    assert.deepEqual(offenders, []);
  });

  test("core/jobs imports no area folder (only core/db, the mechanisms, core/'s root files and the ports JobDeps names)", () => {
    // The port interfaces JobDeps names: they live in folders of their own or of an area today.
    const ports = new Set([
      "core/network/social_network.ts",
      "core/model/model.ts",
      "core/ports/media_store.ts",
      "core/ports/webhook_sender.ts",
      "core/ports/secret_box.ts",
    ]);
    const allowed = (to: string) =>
      inFolder("core/jobs")(to) || inFolder("core/db")(to) || coreRoot(to) || ports.has(to) || mechanismFolders.some((folder) => inFolder(folder)(to));
    const offenders = importsOf(inFolder("core/jobs")).filter((edge) => !allowed(edge.to));
    assert.deepEqual(offenders, []);
  });

  test("core/ imports nothing from jobs/: an area enqueues a job by its kind's name, never through the task list", () => {
    assert.deepEqual(
      importsOf(inFolder("core")).filter((edge) => inFolder("jobs")(edge.to)),
      [],
    );
  });

  test("task tables are read only by jobs/task_list.ts, which only the composition root and the thread's entry import", () => {
    const readers = edges.filter((edge) => taskFiles.has(edge.to) && edge.to !== join("jobs", "task_list.ts"));
    assert.deepEqual(
      readers.filter((edge) => edge.from !== join("jobs", "task_list.ts")),
      [],
    );
    assert.deepEqual(
      edges
        .filter((edge) => edge.to === join("jobs", "task_list.ts"))
        .map((edge) => edge.from)
        .sort(),
      [join("adapters", "runtime", "run_due_jobs.ts"), join("adapters", "runtime", "start_jobs.ts")],
    );
  });

  test("the runner imports no task: nothing the runner files reach declares a task table", () => {
    const runner = ["jobs/index.ts", "jobs/job_thread.ts", "core/jobs/job_loop.ts", "core/jobs/job_runner.ts"];
    const reached = new Set(runner);
    for (let grew = true; grew; ) {
      grew = false;
      for (const edge of edges) {
        if (reached.has(edge.from) && !reached.has(edge.to)) {
          reached.add(edge.to);
          grew = true;
        }
      }
    }
    assert.deepEqual(
      [...reached].filter((path) => taskFiles.has(path)),
      [],
    );
  });

  test("jobs/ imports nothing from adapters/: the runner gets every service from the composition root", () => {
    assert.deepEqual(
      importsOf(inFolder("jobs")).filter((edge) => inFolder("adapters")(edge.to)),
      [],
    );
  });
});

describe("the suites' shards (test/support/shards.ts)", () => {
  test("every test file runs in exactly one shard, and every shard has files", () => {
    const shards = dealFiles(testFiles(), shardFiles().length);
    assert.ok(shards.length >= 2, `expected several shard files in test/shards/, found ${shards.length}`);
    assert.deepEqual(shards.flat().sort(), testFiles());
    for (const [index, files] of shards.entries()) assert.ok(files.length > 0, `shard ${index + 1} got no file`);
  });
});
