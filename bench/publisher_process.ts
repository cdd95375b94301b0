/**
 * A publishing process of the publisher section (scheduling_section.ts): starts a job runner
 * the way `threadline serve` does (a job thread with its own pool and simulated network) on
 * DATABASE_URL and prints `READY`. On stdin, the
 * line `window` starts the publishing window's RSS peak and `stop` stops the runner, prints
 * `PEAK_RSS_MB <window peak> <overall peak>` (sampled every 100 ms) and exits.
 */
import { createInterface } from "node:readline";
import { startJobs } from "../adapters/runtime/start_jobs.ts";

const MB = 1024 * 1024;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("publisher_process.ts needs DATABASE_URL");
let overallPeak = process.memoryUsage.rss();
let windowPeak = 0;
let inWindow = false;
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  overallPeak = Math.max(overallPeak, rss);
  if (inWindow) windowPeak = Math.max(windowPeak, rss);
}, 100);
const runner = await startJobs({ databaseUrl, ports: { network: {} }, logger: console });
console.log("READY");
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "window") {
    inWindow = true;
    windowPeak = process.memoryUsage.rss();
  } else if (line === "stop") break;
}
await runner.stop();
clearInterval(sampler);
console.log(`PEAK_RSS_MB ${(windowPeak / MB).toFixed(1)} ${(overallPeak / MB).toFixed(1)}`);
process.exit(0);
