import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
page.on("console", (m) => console.log("console:", m.type(), m.text()));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto("http://127.0.0.1:8799/console/");
await page.getByLabel("API key").fill(process.env.KEY!);
await page.getByRole("button", { name: "Sign in" }).click();
await page.getByRole("heading", { name: "Plan and credits" }).waitFor();
await page.waitForTimeout(1500);
await page.screenshot({ path: "/tmp/shot_home.png", fullPage: true });
await page.getByRole("link", { name: "Calendar" }).click();
await page
  .locator(".fc-event")
  .first()
  .waitFor({ timeout: 10000 })
  .catch((e) => console.log("no events", e.message));
await page.waitForTimeout(1000);
await page.screenshot({ path: "/tmp/shot_cal.png", fullPage: true });
await browser.close();
