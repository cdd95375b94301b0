/**
 * Lints the generated OpenAPI document with Redocly's and Spectral's recommended rules
 * (`redocly.yaml`, `.spectral.yaml`), both at once. `npm run lint:openapi` runs this file;
 * test/docs.test.ts calls `lintOpenApi()` and expects both clean.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyRouter } from "@trpc/server";
import { buildOpenApiDocument } from "../../core/docs/openapi.ts";
import { appRouter } from "../../routers/index.ts";
import { PROJECT_ROOT } from "./child_node.ts";

/** One linter's run: its exit code, its findings (one line each) and what it printed. */
export interface LintRun {
  linter: string;
  code: number | null;
  findings: string[];
  output: string;
}

/** The findings of a linter's JSON report (Redocly: `{ problems }`; Spectral: an array). */
function findingsOf(linter: string, stdout: string): string[] {
  const report = JSON.parse(stdout.slice(stdout.search(/[[{]/)));
  const problems: any[] = Array.isArray(report) ? report : report.problems;
  return problems.map((problem) =>
    linter === "redocly"
      ? `${problem.severity} ${problem.ruleId} ${problem.location?.[0]?.pointer ?? ""}: ${problem.message}`
      : `${problem.severity === 0 ? "error" : problem.severity === 1 ? "warning" : "info"} ${problem.code} ${problem.path.join("/")}: ${problem.message}`,
  );
}

/** Runs a linter's CLI (a Node script under node_modules) to the end, with a deadline. */
function runLinter(linter: string, script: string, args: string[], timeoutMs: number): Promise<LintRun> {
  return new Promise((resolve, reject) => {
    // Redocly asks no network service when telemetry and the update notice are off (CI is offline).
    const env: NodeJS.ProcessEnv = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(process.execPath, [join(PROJECT_ROOT, "node_modules", script), ...args], { cwd: PROJECT_ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${linter} did not finish within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const output = `${stdout}${stderr}`;
      try {
        resolve({ linter, code, findings: findingsOf(linter, stdout), output });
      } catch {
        resolve({ linter, code, findings: [`no JSON report (exit ${code})`], output });
      }
    });
  });
}

/** Generates the document as `npm run openapi` prints it and runs both linters on it. */
export async function lintOpenApi(timeoutMs = 60_000): Promise<LintRun[]> {
  const dir = await mkdtemp(join(tmpdir(), "threadline-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(buildOpenApiDocument(appRouter as AnyRouter), null, 2));
    return await Promise.all([
      runLinter("redocly", "@redocly/cli/bin/cli.js", ["lint", file, "--config", join(PROJECT_ROOT, "redocly.yaml"), "--format", "json"], timeoutMs),
      // `-F hint`: any finding at all, warnings and hints included, fails the run.
      runLinter(
        "spectral",
        "@stoplight/spectral-cli/dist/index.js",
        ["lint", file, "--ruleset", join(PROJECT_ROOT, ".spectral.yaml"), "-F", "hint", "-f", "json", "--quiet"],
        timeoutMs,
      ),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = await lintOpenApi();
  for (const run of runs)
    process.stdout.write(`${run.linter}: ${run.findings.length} findings (exit ${run.code})\n${run.findings.map((line) => `  ${line}\n`).join("")}`);
  process.exitCode = runs.every((run) => run.code === 0 && run.findings.length === 0) ? 0 : 1;
}
