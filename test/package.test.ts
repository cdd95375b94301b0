/**
 * The published package (README: "Depending on the package"): `npm pack` builds dist/
 * (compiled JavaScript and .d.ts from the same sources), the tarball installs into a
 * plain Node project, and a plain `node` script (no tsx) embeds it on the embedded
 * default: an instance, a first user and key through the admin API, a `/v1` call; the
 * job worker thread runs from the compiled files on PostgreSQL; a TypeScript consumer
 * type-checks against the declarations.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { childEnv, PROJECT_ROOT, runNode } from "./support/child_node.ts";
import { createTestDatabase } from "./support/test_database.ts";

const exec = promisify(execFile);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
let workDir: string;
let appDir: string;

before(async () => {
  workDir = await mkdtemp(join(tmpdir(), "threadline-package-"));
  appDir = join(workDir, "app");
  const tarball = process.env.PACKAGE_TARBALL ?? (await packed(workDir));
  await exec("mkdir", ["-p", appDir]);
  await writeFile(join(appDir, "package.json"), JSON.stringify({ name: "embedder", private: true, type: "module" }));
  // From the registry, or npm's cache when it holds every package (CI installed them just before).
  await exec(NPM, ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], {
    cwd: appDir,
    env: childEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
});
after(() => rm(workDir, { recursive: true, force: true }));

/**
 * The tarball `npm pack` writes into `dir` (its `prepack` runs `npm run build` in the repository).
 * `.ci/run` packs once and passes it in `PACKAGE_TARBALL`, so its three passes install the same build.
 */
async function packed(dir: string): Promise<string> {
  await exec(NPM, ["pack", "--pack-destination", dir, "--loglevel", "error"], { cwd: PROJECT_ROOT, env: childEnv(), maxBuffer: 16 * 1024 * 1024 });
  const tarball = (await readdir(dir)).find((name) => name.endsWith(".tgz"));
  assert.ok(tarball, "npm pack wrote a tarball");
  return join(dir, tarball);
}

test("the package holds compiled JavaScript, declarations, the migrations and the licence, and no sources or tests", async () => {
  const root = join(appDir, "node_modules", "threadline");
  const top = await readdir(root);
  for (const name of ["dist", "package.json", "README.md", "LICENSE"]) assert.ok(top.includes(name), name);
  for (const name of ["core", "test", "bench", "mod.ts"]) assert.ok(!top.includes(name), `${name} is not published`);
  const dist = await readdir(join(root, "dist"), { recursive: true });
  for (const file of [
    "mod.js",
    "mod.d.ts",
    join("adapters", "runtime", "run_due_jobs.js"),
    join("adapters", "cli", "bin.js"),
    join("core", "db", "migrations", "0001_platform.sql"),
    // The web console ships built: an installed package never needs Vite.
    join("console", "index.html"),
  ]) {
    assert.ok(dist.includes(file), file);
  }
  assert.ok(!dist.some((file) => file.endsWith(".ts") && !file.endsWith(".d.ts")), "no TypeScript sources in dist/");
});

test("a plain node script embeds it: admin API user and key, then a /v1 call with that key", async () => {
  const script = `
    import { createThreadline, configFromEnv, appRouter, createCallerFactory, createContextInner } from "threadline";
    const threadline = createThreadline({ ...configFromEnv({}), dataDir: ${JSON.stringify(join(workDir, "data"))}, logLevel: "silent" });
    const { userId, mainAccountId } = await threadline.admin.createUser({ name: "Embedder", account: { username: "embedder" } });
    const { key } = await threadline.admin.createKey({ userId, name: "first" });
    const answer = await threadline.fetch(new Request("http://local/v1/accounts", { headers: { Authorization: "Bearer " + key } }));
    const body = await answer.json();
    const console_ = await threadline.fetch(new Request("http://local/console/"));
    const services = await threadline.start();
    const caller = createCallerFactory(appRouter)(createContextInner({ services, headers: { Authorization: "Bearer " + key } }));
    const tags = await caller.tags.list({});
    console.log(JSON.stringify({ status: answer.status, console: console_.status, consoleType: console_.headers.get("content-type"), accounts: body.data.map((a) => a.id), mainAccountId, tags: tags.data.length, paths: Object.keys(threadline.openapi().paths).length }));
    await threadline.close();
  `;
  await writeFile(join(appDir, "embed.mjs"), script);
  const run = await runNode(["embed.mjs"], { cwd: appDir, env: childEnv(), timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
  assert.equal(result.status, 200);
  assert.equal(result.console, 200);
  assert.equal(result.consoleType, "text/html; charset=utf-8");
  assert.deepEqual(result.accounts, [result.mainAccountId]);
  assert.equal(result.tags, 0);
  assert.ok(result.paths > 30, "the OpenAPI document lists the served paths");
});

test("the installed threadline binary runs from the compiled files", async () => {
  const run = await runNode([join(appDir, "node_modules", "threadline", "dist", "adapters", "cli", "bin.js"), "openapi"], {
    cwd: appDir,
    env: childEnv(),
    timeoutMs: 30_000,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).openapi.startsWith("3.1"), true);
});

test("a TypeScript consumer type-checks against the declarations", async () => {
  await writeFile(
    join(appDir, "consumer.ts"),
    `import { createThreadline, type AppRouter, type ThreadlineConfig } from "threadline";
     const config: ThreadlineConfig = { dataDir: null };
     const threadline = createThreadline(config);
     const issued: Promise<{ key: string }> = threadline.admin.createKey({ userId: 1 });
     type TagsList = AppRouter["tags"]["list"];
     export { issued, type TagsList };
     // @ts-expect-error: the admin API checks its arguments
     threadline.admin.createKey({ user: 1 });\n`,
  );
  await writeFile(
    join(appDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2023", strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ["consumer.ts"],
    }),
  );
  const tsc = join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
  const run = await runNode([tsc, "-p", "tsconfig.json"], { cwd: appDir, env: childEnv(), timeoutMs: 60_000 });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
});

test("on PostgreSQL the job worker thread runs from the compiled files", {
  skip: process.env.DATABASE_URL ? false : "needs DATABASE_URL (CI runs it in the PostgreSQL pass)",
}, async () => {
  const script = `
    import { createThreadline } from "threadline";
    const threadline = createThreadline({ databaseUrl: process.env.PACKAGE_DATABASE_URL, runJobs: true, logLevel: "silent", shutdownTimeoutMs: 2000 });
    const services = await threadline.start();
    const [job] = await services.sql\`insert into jobs (kind, payload, run_at, max_attempts) values ('purge_finished_jobs', '{}', now(), 3) returning id\`;
    let status;
    for (let i = 0; i < 100 && status !== "done"; i++) {
      [{ status }] = await services.sql\`select status from jobs where id = \${job.id}\`;
      if (status !== "done") await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(JSON.stringify({ status }));
    await threadline.close();
  `;
  await writeFile(join(appDir, "jobs.mjs"), script);
  const database = await createTestDatabase("postgres");
  try {
    const run = await runNode(["jobs.mjs"], { cwd: appDir, env: childEnv({ PACKAGE_DATABASE_URL: database.url! }), timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split("\n").at(-1)!), { status: "done" });
  } finally {
    await database.drop();
  }
});
