/**
 * A real Chromium for the console suites: Debian's `chromium` package driven by playwright-core
 * (no browser download). Where no Chromium is installed the suites skip with that reason printed
 * (`.ci/run` installs it). A failed test keeps its Playwright trace under `test-results/`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { PROJECT_ROOT } from "./child_node.ts";

/** Where Chromium is: `CHROMIUM_PATH`, else Debian's package. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((path): path is string => Boolean(path));
  return candidates.find((path) => existsSync(path));
}

/** Why the browser suites cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  return chromiumPath() ? undefined : "no Chromium here: install Debian's `chromium` package (apt-get install chromium) or set CHROMIUM_PATH";
}

/** Launches the headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true });
}

/** A fresh browser context (its own storage: a new visitor) recording a trace. */
export async function tracedContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.tracing.start({ screenshots: true, snapshots: true });
  return context;
}

/** Ends `context`, keeping its trace as `test-results/<name>.zip` when the test failed; answers the trace's path then. */
export async function closeTraced(context: BrowserContext, name: string, failed: boolean): Promise<string | undefined> {
  const path = failed ? join(PROJECT_ROOT, "test-results", `${name.replace(/[^a-z0-9]+/gi, "-")}.zip`) : undefined;
  await context.tracing.stop(path ? { path } : {});
  await context.close();
  return path;
}

/** A violation axe-core found, as the suites report it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const requireHere = createRequire(import.meta.url);

/**
 * Runs axe-core on `page` and answers its serious and critical violations. The page's context
 * must bypass the console's Content-Security-Policy (`bypassCSP`), which refuses injected scripts.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const source = await readFile(requireHere.resolve("axe-core/axe.min.js"), "utf8");
  await page.addScriptTag({ content: source });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((violation: any) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node: any) => String(node.target)),
    }));
  });
  return (violations as AxeViolation[]).filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
