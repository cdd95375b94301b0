/**
 * `npm run bench:console`: what the web console costs a browser. Reads the built console
 * (dist/console) and prints each file's size as served (gzip -9, console_assets.ts), the first
 * page's total (the HTML, its entry script and stylesheet, and the chunks it preloads; target
 * under 300 KB gzipped) and each page loaded later. Then, in Debian's Chromium against a
 * `threadline serve` on the embedded default, the first load: cold (empty cache) until the
 * sign-in form shows, and from signing in until Home shows its plan. Median of 5 loads each.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { consoleDirectory, ensureConsoleBuilt, loadConsoleAssets } from "../adapters/console/console_assets.ts";
import { chromiumPath } from "../test/support/browser.ts";
import { childEnv, pollUntil, startNode } from "../test/support/child_node.ts";

const TARGET_KB = 300;
const LOADS = 5;

if (!(await ensureConsoleBuilt())) throw new Error("The console is not built and cannot be built here");
const assets = await loadConsoleAssets(consoleDirectory()!);
const gzipped = (name: string) => (assets.get(name)?.gzipped ?? assets.get(name)?.body)?.byteLength ?? 0;
const html = new TextDecoder().decode(assets.get("index.html")!.body);
const firstPage = ["index.html", ...[...html.matchAll(/(?:src|href)="\/console\/([^"]+)"/g)].map((match) => match[1])];
const firstBytes = firstPage.reduce((sum, name) => sum + gzipped(name), 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

console.log("== Console bundle (gzip -9, as served) ==");
console.log("file                                        raw KB   gzip KB   first page");
for (const [name, asset] of [...assets].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${name.padEnd(42)} ${kb(asset.body.byteLength).padStart(7)} ${kb(gzipped(name)).padStart(9)}   ${firstPage.includes(name) ? "yes" : "later"}`);
}
const pass = firstBytes / 1024 < TARGET_KB;
console.log(`first page: ${kb(firstBytes)} KB gzipped (${firstPage.join(", ")})`);
console.log(`target: first page under ${TARGET_KB} KB gzipped: ${pass ? "PASS" : "FAIL"}`);

const executablePath = chromiumPath();
if (!executablePath) {
  console.log("first load: skipped, no Chromium (apt-get install chromium, or set CHROMIUM_PATH)");
} else {
  const dir = await mkdtemp(join(tmpdir(), "tl-console-bench-"));
  const demoFile = join(dir, "demo.json");
  const server = startNode(["--import", "tsx", "adapters/cli/main.ts", "serve", "--port", "0", "--demo-file", demoFile], {
    env: childEnv({ DATA_DIR: join(dir, "data"), LOG_LEVEL: "warn" }),
  });
  try {
    const url = await pollUntil("the server to listen", () => /listening on (http:\/\/\S+)/.exec(server.stdout)?.[1], { timeoutMs: 120_000 });
    await pollUntil("the demo world", () => (existsSync(demoFile) ? true : undefined), { timeoutMs: 60_000 });
    const world = JSON.parse(await readFile(demoFile, "utf8"));
    const browser = await chromium.launch({ executablePath });
    const signInMs: number[] = [];
    const homeMs: number[] = [];
    for (let round = 0; round < LOADS; round++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${url}/console/`);
      await page.getByLabel("API key").waitFor();
      signInMs.push(performance.now() - started);
      await page.getByLabel("API key").fill(world.keys.write);
      const signedIn = performance.now();
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("region", { name: "Plan and credits" }).getByText("Plan", { exact: true }).waitFor();
      homeMs.push(performance.now() - signedIn);
      await context.close();
    }
    await browser.close();
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(0);
    console.log(`first load, empty cache, until the sign-in form shows: median ${median(signInMs)} ms of ${LOADS} (loopback, Chromium ${browser.version()})`);
    console.log(`sign in until Home shows the plan: median ${median(homeMs)} ms of ${LOADS}`);
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await rm(dir, { recursive: true, force: true });
  }
}
process.exitCode = pass ? 0 : 1;
