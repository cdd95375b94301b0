/**
 * The web console in a real Chromium (Debian's package, playwright-core) against a real
 * `threadline serve` on the embedded default: signing in and out, the calendar across a
 * daylight-saving change, webhooks and their deliveries, accessibility (axe-core) in light and
 * dark, and phone width. A failed test keeps its trace under test-results/.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { browserSkipReason, closeTraced, launchChromium, seriousAxeViolations, tracedContext } from "./support/browser.ts";
import { postgresMode, startServedWorld, type ServedWorld } from "./support/served_world.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook_receiver.ts";
import { pollUntil } from "./support/child_node.ts";
import { PNG_1X1 } from "./support/media_bytes.ts";
import { startFakeXServer, type FakeXServer } from "./support/fake_x_api/fake_x_server.ts";
import { createServer } from "node:net";

const skip =
  browserSkipReason() ??
  (postgresMode ? "the console suite runs on the embedded default (the console is the same static client on either storage)" : undefined);
if (skip) console.log(`# console browser suite skipped: ${skip}`);

/** The US daylight-saving start of the next March at least a week away: its Sunday, as YYYY-MM-DD parts. */
function nextUsSpringForward(now: Date): { friday: string; monday: string } {
  for (let year = now.getUTCFullYear(); ; year++) {
    // The second Sunday of March.
    const first = new Date(Date.UTC(year, 2, 1));
    const sunday = new Date(Date.UTC(year, 2, 1 + ((7 - first.getUTCDay()) % 7) + 7));
    if (sunday.getTime() - now.getTime() < 7 * 86_400_000) continue;
    const day = (offset: number) => new Date(sunday.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    return { friday: day(-2), monday: day(1) };
  }
}

const X_APP = { clientId: "console-test-client", clientSecret: "console-test-secret" };

/** A port free on loopback now (the kernel's pick, released for the server to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

describe("the web console in Chromium", { skip }, () => {
  let served: ServedWorld;
  let receiver: WebhookReceiver;
  let fakeX: FakeXServer;
  let browser: Browser;
  let base: string;
  let world: any;

  before(async () => {
    receiver = await startWebhookReceiver();
    // X's side of connecting an account: the fake X server's OAuth 2.0 app. The network stays the
    // simulated one (no X_BEARER_TOKEN), built from the same seed, so X's users are the demo's people.
    fakeX = await startFakeXServer({ app: X_APP });
    const port = await freePort();
    served = await startServedWorld("console", {
      port,
      env: {
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        X_CLIENT_ID: X_APP.clientId,
        X_CLIENT_SECRET: X_APP.clientSecret,
        X_API_BASE_URL: fakeX.url,
        X_AUTHORIZE_URL: `${fakeX.url}/i/oauth2/authorize`,
      },
    });
    base = served.servers[0].url;
    world = served.world;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await served?.close();
    await receiver?.close();
    await fakeX?.close();
  });

  const rest = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.keys.write}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  /** Runs `steps` on a new page of a new visitor; the trace is kept when they fail. */
  const onPage = async (name: string, steps: (page: Page) => Promise<void>, options: Parameters<Browser["newContext"]>[0] = {}) => {
    const context = await tracedContext(browser, options);
    let failed = true;
    try {
      await steps(await context.newPage());
      failed = false;
    } finally {
      const trace = await closeTraced(context, name, failed);
      if (trace) console.log(`# trace of the failed console test "${name}": ${trace} (npx playwright show-trace ${trace})`);
    }
  };

  const signIn = async (page: Page, key: string = world.keys.write, stay = false) => {
    await page.goto(`${base}/console/`);
    await page.getByLabel("API key").fill(key);
    if (stay) await page.getByLabel("Stay signed in on this browser").check();
    await page.getByRole("button", { name: "Sign in" }).click();
  };

  it("refuses a wrong key with the API's code, opens on the right one, keeps it only for the session, and signs out", async () => {
    await onPage("sign in", async (page) => {
      await signIn(page, "sxk_not_a_key_of_anyone_000000000");
      await page.getByRole("alert").filter({ hasText: "(invalid_api_key)" }).waitFor();
      await signIn(page, world.keys.revoked);
      await page.getByRole("alert").filter({ hasText: "(invalid_api_key)" }).waitFor();

      await signIn(page);
      const me = await rest("GET", "/v1/me");
      const plan = page.getByRole("region", { name: "Plan and credits" });
      await plan.getByText(me.body.data.plan.label, { exact: true }).waitFor();
      // The key is sent as a header, never in a URL, and kept in this tab's session only.
      assert.ok(!page.url().includes(world.keys.write));
      assert.equal(await page.evaluate(() => localStorage.getItem("threadline.key")), null);
      await page.reload();
      await plan.waitFor();

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("API key").waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem("threadline.key")), null);
    });
  });

  it("connects the main account through X's consent screen and shows it connected", async () => {
    fakeX.oauth!.approveAs(world.accounts.main);
    await onPage("connect X", async (page) => {
      await signIn(page);
      await page.getByRole("button", { name: "Connect an X account" }).click();
      // X's consent (approving at once as the main account) sends the browser to the server's callback.
      await page.getByRole("heading", { name: "Account connected" }).waitFor();
      await page.getByRole("link", { name: "Back to the console" }).click();
      const row = page.getByRole("region", { name: "Accounts" }).getByRole("row", { name: new RegExp(`@${world.handles.main}`) });
      await row.getByText("connected (oauth2)").waitFor();
    });
    const accounts = (await rest("GET", "/v1/accounts")).body.data;
    assert.equal(accounts.find((account: any) => account.id === world.accounts.main).x_connection.status, "connected");
  });

  it("shows a failed post with its reason on Home and retries it at the next queue slot", async () => {
    // The network refuses the same text twice in 24 hours: the second post fails when published.
    const text = `Console failure test ${Date.now()}`;
    const publish = () => rest("POST", "/v1/scheduled-posts", { text, scheduled_for: "now" }, { "Idempotency-Key": crypto.randomUUID() });
    const first = await publish();
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await pollUntil(
      "the first post to be sent",
      async () => ((await rest("GET", `/v1/scheduled-posts/${first.body.data.id}`)).body.data.status === "sent" ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const second = await publish();
    assert.equal(second.status, 502, JSON.stringify(second.body));
    assert.equal(second.body.error.code, "upstream_error");
    const failed = (await rest("GET", "/v1/scheduled-posts?status=error&limit=100")).body.data.find((post: any) => post.parts[0].text === text);
    assert.ok(failed, "the refused post is kept with status error");
    const id = failed.id;
    await onPage("retry", async (page) => {
      await signIn(page);
      const failures = page.getByRole("region", { name: "Recent failures" });
      const item = failures.getByRole("listitem").filter({ hasText: text });
      await item.getByText(/already published/).waitFor();
      await item.getByRole("button", { name: "Retry at the next queue slot" }).click();
      await item.waitFor({ state: "detached" });
    });
    const retried = (await rest("GET", `/v1/scheduled-posts/${id}`)).body.data;
    assert.equal(retried.status, "scheduled");
    assert.equal(retried.error, null);
    assert.ok(Date.parse(retried.scheduled_for) > Date.now());
  });

  it("sees a lead arrive in the inbox when a new agent finds one", async () => {
    await onPage("lead arrives", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Audience" }).click();
      const inbox = page.getByRole("region", { name: "Leads" });
      await inbox.waitFor();
      // Created while the inbox is open: its first run starts at once. A topic the demo agent does
      // not watch, so the people it finds are new leads.
      const agent = await rest("POST", "/v1/signals/agents", {
        name: "Console arrivals",
        icp_description: "Engineers and founders building products on Postgres",
        keywords: ["postgres"],
        precision_mode: "discovery",
      });
      assert.equal(agent.status, 201, JSON.stringify(agent.body));
      await inbox.locator("tr.lead", { hasText: "Console arrivals" }).first().waitFor({ timeout: 60_000 });
    });
  });

  it("stays signed in across browser sessions only when asked", async () => {
    await onPage("stay signed in", async (page) => {
      await signIn(page, world.keys.write, true);
      await page.getByRole("region", { name: "Plan and credits" }).waitFor();
      const state = await page.context().storageState();
      const second = await browser.newContext({ storageState: state });
      try {
        const again = await second.newPage();
        await again.goto(`${base}/console/`);
        await again.getByRole("region", { name: "Plan and credits" }).waitFor();
      } finally {
        await second.close();
      }
    });
  });

  it("shows a post across a daylight-saving change at the same wall-clock time, and moves it by drag and drop", async () => {
    const { friday, monday } = nextUsSpringForward(new Date());
    const zone = await rest("PATCH", "/v1/queue-settings", { timezone: "America/New_York" });
    assert.equal(zone.status, 200, JSON.stringify(zone.body));
    // 09:00 in New York on the Friday before the clocks go forward (UTC-5).
    const created = await rest("POST", "/v1/scheduled-posts", { text: "Console drag test", scheduled_for: `${friday}T14:00:00Z` });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id;

    await onPage("calendar drag", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Calendar" }).click();
      await page.getByText("Times in America/New_York").waitFor();
      // The month that shows both days (a month's grid may hold the Friday but end before the Monday).
      const both = page.locator(`td.fc-daygrid-day[data-date="${friday}"], td.fc-daygrid-day[data-date="${monday}"]`);
      for (let step = 0; step < 24 && (await both.count()) < 2; step++) await page.getByRole("button", { name: "Next" }).click();
      const event = page.locator(".fc-event", { hasText: "Console drag test" });
      await event.waitFor();
      assert.match((await event.textContent()) ?? "", /9a/);

      // Pointer steps as a person drags (FullCalendar follows pointer moves, not a drop event).
      const from = await event.boundingBox();
      const to = await page.locator(`td.fc-daygrid-day[data-date="${monday}"]`).boundingBox();
      assert.ok(from && to, "the post and the target day are on screen");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(to.x + to.width / 2, to.y + to.height * 0.7, { steps: 15 });
      await page.mouse.up();
      await page.getByRole("status").filter({ hasText: "Moved to" }).waitFor();
      // The Monday after the change: 09:00 in New York is now 13:00 UTC (UTC-4).
      const moved = await rest("GET", `/v1/scheduled-posts/${id}`);
      assert.equal(moved.body.data.scheduled_for, `${monday}T13:00:00.000Z`);
      assert.match((await page.locator(".fc-event", { hasText: "Console drag test" }).textContent()) ?? "", /9a/);

      // The keyboard's way: open it and type the new wall-clock time.
      await page.locator(".fc-event", { hasText: "Console drag test" }).focus();
      await page.keyboard.press("Enter");
      await page
        .getByRole("dialog")
        .getByLabel(/Move to/)
        .fill(`${monday}T11:15`);
      await page
        .getByRole("dialog")
        .getByLabel(/Move to/)
        .press("Enter");
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      assert.equal((await rest("GET", `/v1/scheduled-posts/${id}`)).body.data.scheduled_for, `${monday}T15:15:00.000Z`);

      // Opened: its parts, status and actions.
      await page.locator(".fc-event", { hasText: "Console drag test" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Console drag test").waitFor();
      await dialog.getByText("scheduled", { exact: true }).waitFor();
      await dialog.getByRole("button", { name: "Move to drafts" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert.equal((await rest("GET", `/v1/scheduled-posts/${id}`)).body.data.status, "draft");
    });
  });

  it("composes a thread with an image and alt text, warns about a URL's price, schedules it and finds it on the calendar", async () => {
    await onPage("compose", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Compose" }).click();
      await page.getByLabel("Text").fill("Compose test: the first part");
      await page.getByRole("button", { name: "Add a part" }).click();
      const second = page.getByRole("group", { name: "Part 2 of 2" });
      await second.getByLabel("Text").fill("Read more at https://example.com/post");
      await page.getByRole("alert").filter({ hasText: "Part 2 holds a URL" }).waitFor();
      await second.getByLabel("Text").fill("The second part, with a picture");
      await page.getByRole("alert").filter({ hasText: "holds a URL" }).waitFor({ state: "detached" });

      await page
        .getByRole("group", { name: "Part 1 of 2" })
        .locator('input[type="file"]')
        .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG_1X1 });
      await page.getByRole("group", { name: "Part 1 of 2" }).getByLabel("Alt text").fill("A single dot");
      await page.getByRole("img", { name: "A single dot" }).waitFor();

      const day = new Date(Date.now() + 3 * 86_400_000);
      const zone = (await rest("GET", "/v1/queue-settings")).body.data.timezone;
      const local = new Intl.DateTimeFormat("sv-SE", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(day);
      await page.getByLabel(/At a time/).check();
      await page.getByLabel(/Date and time in/).fill(`${local}T10:30`);
      await page.getByRole("button", { name: "Schedule" }).click();
      const done = page.getByRole("status").filter({ hasText: "scheduled for" });
      await done.waitFor();
      const id = /Post (\d+) scheduled/.exec((await done.textContent()) ?? "")?.[1];
      assert.ok(id);

      const post = (await rest("GET", `/v1/scheduled-posts/${id}`)).body.data;
      assert.equal(post.parts.length, 2);
      assert.equal(post.parts[0].media.length, 1);
      assert.equal(post.parts[0].media[0].alt_text, "A single dot");
      const wall = new Intl.DateTimeFormat("sv-SE", { timeZone: zone, dateStyle: "short", timeStyle: "short" }).format(new Date(post.scheduled_for));
      assert.equal(wall, `${local} 10:30`);

      await done.getByRole("link", { name: "See the calendar" }).click();
      await page.locator(".fc-event", { hasText: "Compose test" }).first().waitFor();
    });
  });

  it("searches contacts and keeps a note, opens a list's members, and records a verdict on a lead", async () => {
    const contacts = (await rest("GET", "/v1/contacts?limit=5")).body.data;
    assert.ok(contacts.length > 0, "the demo world has contacts");
    const person = contacts[0];
    const leads = (await rest("GET", "/v1/signals/leads?limit=50")).body.data;
    assert.ok(leads.length > 0, "the demo agent found leads");
    const lead = leads[0];
    await onPage("audience", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Audience" }).click();
      const region = page.getByRole("region", { name: "Contacts" });
      await region.getByLabel("Search by handle or name").fill(person.username);
      await region.getByRole("button", { name: `Notes on @${person.username}` }).click();
      await region.getByLabel("New note").fill("Met at the console test");
      await region.getByRole("button", { name: "Add note" }).click();
      await region.locator("li.note", { hasText: "Met at the console test" }).waitFor();
      const notes = (await rest("GET", `/v1/contacts/${person.id}/notes`)).body.data;
      assert.ok(notes.some((note: any) => note.body === "Met at the console test"));

      const lists = page.getByRole("region", { name: "Contact lists" });
      await lists.getByRole("button").first().click();
      await lists.locator("ul.members li").first().waitFor();

      const inbox = page.getByRole("region", { name: "Leads" });
      const row = inbox.locator(`tr.lead[data-lead="${lead.id}"]`);
      await row.getByRole("button", { name: "Not fit", exact: true }).click();
      await row.getByRole("button", { name: "Not fit", pressed: true }).waitFor();
      assert.equal((await rest("GET", "/v1/signals/leads?limit=50")).body.data.find((item: any) => item.id === lead.id).feedback, "not_fit");
    });
  });

  it("downloads a dataset's CSV, drafts outreach, and cancels a DM campaign's unsent messages", async () => {
    const datasetId = world.datasets.research_ready;
    const expected = await (await fetch(`${base}/v1/datasets/${datasetId}/export`, { headers: { Authorization: `Bearer ${world.keys.write}` } })).text();
    // The demo campaign holds messages placed a day later: still pending while the test runs.
    const id = world.dm.campaign;
    assert.ok((await rest("GET", `/v1/dm/campaigns/${id}`)).body.data.counts.pending > 0, "the demo campaign has pending messages");
    await onPage("datasets", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Datasets" }).click();
      const title = (await rest("GET", `/v1/datasets/${datasetId}`)).body.data.title;
      await page.getByRole("button", { name: `Rows of ${title}` }).click();
      const rows = page.getByRole("region", { name: `Rows of ${title}` });
      await rows.locator("tbody tr").first().waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), rows.getByRole("button", { name: "Download CSV" }).click()]);
      const saved = await download.path();
      assert.equal(await readFile(saved, "utf8"), expected);
      await rows.getByRole("button", { name: "Draft outreach" }).click();
      await rows.getByRole("status").filter({ hasText: "Drafted" }).waitFor({ timeout: 30_000 });

      const campaigns = page.getByRole("region", { name: "DM campaigns" });
      await campaigns.getByRole("button", { name: `Cancel campaign ${id}` }).click();
      await campaigns.getByRole("button", { name: `Cancel campaign ${id}` }).waitFor({ state: "detached" });
      assert.equal((await rest("GET", `/v1/dm/campaigns/${id}`)).body.data.counts.pending, 0);
    });
  });

  it("drafts a reply beside a mention", async () => {
    await onPage("engage", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Engage" }).click();
      const region = page.getByRole("region", { name: "Mentions" });
      const first = region.locator("li.engage-post").first();
      await first.waitFor({ timeout: 30_000 });
      await first.getByRole("button", { name: "Draft a reply" }).click();
      const draft = first.getByRole("status");
      await draft.waitFor({ timeout: 30_000 });
      assert.ok(((await draft.textContent()) ?? "").trim().length > 0);
    });
  });

  it("charts followers and impressions and shows the best times to post the API answers", async () => {
    const best = await rest("GET", "/v1/posts/best-times");
    assert.equal(best.status, 200);
    await onPage("analytics", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Analytics" }).click();
      const daily = page.getByRole("region", { name: "Followers and impressions" });
      await daily.locator("figure.chart canvas").first().waitFor();
      assert.equal(await daily.locator("figure.chart").count(), 2);
      const region = page.getByRole("region", { name: "Best times to post" });
      if (best.body.data.best.length === 0) {
        await region.getByText("Not enough posts yet").waitFor();
      } else {
        const first = best.body.data.best[0];
        const weekday = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][first.weekday - 1];
        await region
          .getByRole("listitem")
          .first()
          .getByText(`${weekday} ${String(first.hour).padStart(2, "0")}:00`)
          .waitFor();
      }
      await page.getByRole("region", { name: "Top posts" }).waitFor();
    });
  });

  it("creates a webhook, shows its secret once, sends a test and lists the delivery", async () => {
    await onPage("webhooks", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Developers" }).click();
      await page.getByLabel("New webhook URL").fill(`${receiver.base}/console-hook`);
      await page.getByRole("button", { name: "Create webhook" }).click();
      await page.getByRole("status").filter({ hasText: "Signing secret (shown once)" }).waitFor();
      const row = page.getByRole("row", { name: new RegExp(`${receiver.base}/console-hook`) });
      await row.getByRole("button", { name: "Deliveries" }).click();
      await row.getByRole("button", { name: "Send test" }).click();
      await receiver.waitFor("/console-hook", 1, 30_000);
      await page.getByRole("region", { name: "Deliveries" }).locator("tr.delivery", { hasText: "succeeded" }).waitFor({ timeout: 30_000 });
    });
  });

  it("creates a key shown once, rotates the console's own key and carries on, and is signed out when that key is revoked", async () => {
    const own = await rest("POST", "/v1/keys", { name: "console test" });
    assert.equal(own.status, 201);
    await onPage("keys", async (page) => {
      await signIn(page, own.body.data.key);
      await page.getByRole("link", { name: "Developers" }).click();
      const keys = page.getByRole("region", { name: "API keys" });
      await keys.getByLabel("New key name").fill("script");
      await keys.getByLabel("Can write (otherwise read-only)").uncheck();
      await keys.getByRole("button", { name: "Create key" }).click();
      const shown = keys.getByRole("status").filter({ hasText: 'New key "script"' });
      const created = /sxk_\w+/.exec((await shown.textContent()) ?? "")?.[0];
      assert.ok(created, "the new key is shown");
      const scopes = await fetch(`${base}/v1/keys`, { headers: { Authorization: `Bearer ${created}` } });
      assert.deepEqual((await scopes.json()).data.find((key: any) => key.name === "script").scopes, ["read"]);

      await keys.getByRole("button", { name: "Rotate console test" }).click();
      await pollUntil(
        "the rotated key to be refused",
        async () => ((await fetch(`${base}/v1/me`, { headers: { Authorization: `Bearer ${own.body.data.key}` } })).status === 401 ? true : undefined),
        {
          timeoutMs: 10_000,
        },
      );
      // Still signed in, now with the replacement.
      await page.reload();
      await keys.getByRole("cell", { name: "console test this console" }).waitFor();
      await keys.getByRole("button", { name: "Revoke console test" }).click();
      await page.getByLabel("API key").waitFor();
    });
  });

  it("shows events live as they happen, and redraws the calendar on them", async () => {
    await onPage("event feed", async (page) => {
      await signIn(page);
      await page.getByRole("link", { name: "Developers" }).click();
      const feed = page.getByRole("region", { name: "Live events" });
      await feed.getByText("Connected").waitFor();
      const created = await rest("POST", "/v1/scheduled-posts", { text: "Live feed test", scheduled_for: new Date(Date.now() + 86_400_000).toISOString() });
      assert.equal(created.status, 201);
      await feed.locator("li.event", { hasText: "post.scheduled" }).first().waitFor({ timeout: 15_000 });

      // The same stream redraws the calendar: a post made elsewhere shows up without a reload.
      await page.getByRole("link", { name: "Calendar" }).click();
      await page.getByText("Times in").waitFor();
      // The calendar has read its posts (the demo's), so what follows can only come from the stream.
      await page.locator(".fc-event").first().waitFor();
      const elsewhere = await rest("POST", "/v1/scheduled-posts", { text: "Made elsewhere", scheduled_for: new Date(Date.now() + 86_400_000).toISOString() });
      assert.equal(elsewhere.status, 201);
      await page.locator(".fc-event", { hasText: "Made elsewhere" }).waitFor({ timeout: 15_000 });
    });
  });

  it("has no serious accessibility violation on any page, in light and in dark", async () => {
    await onPage(
      "accessibility",
      async (page) => {
        await signIn(page);
        await page.getByRole("region", { name: "Plan and credits" }).waitFor();
        const found: string[] = [];
        for (const theme of ["light", "dark"]) {
          if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByRole("button", { name: /Switch to/ }).click();
          for (const [link, ready] of [
            ["Home", "Recent failures"],
            ["Calendar", "Times in"],
            ["Compose", "When"],
            ["Analytics", "Best times to post"],
            ["Audience", "Leads"],
            ["Datasets", "DM campaigns"],
            ["Engage", "Draft a reply"],
            ["Developers", "Webhooks"],
          ]) {
            await page.getByRole("link", { name: link }).click();
            await page.getByText(ready).first().waitFor();
            await pollUntil("the page's queries to settle", async () => ((await page.locator('[aria-busy="true"]').count()) === 0 ? true : undefined), {
              timeoutMs: 15_000,
            });
            for (const violation of await seriousAxeViolations(page))
              found.push(`${theme} ${link}: ${violation.id} (${violation.help}) at ${violation.targets.join(" ")}`);
          }
        }
        assert.deepEqual(found, []);
      },
      { bypassCSP: true },
    );
  });

  it("fits a phone's width without sideways scrolling", async () => {
    await onPage(
      "phone width",
      async (page) => {
        await signIn(page);
        for (const link of ["Home", "Calendar", "Compose", "Analytics", "Audience", "Datasets", "Engage", "Developers"]) {
          await page.getByRole("link", { name: link }).click();
          await page.getByRole("heading", { level: 1, name: link }).waitFor();
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${link} is ${overflow} px wider than the phone`);
        }
      },
      { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    );
  });

  it("serves the console's files with their caching and security headers", async () => {
    const page = await fetch(`${base}/console/calendar`, { headers: { "Accept-Encoding": "gzip" } });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("cache-control"), "no-cache");
    assert.match(page.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    const html = await page.text();
    const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const asset = await fetch(`${base}/console/${script}`);
    assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal((await fetch(`${base}/console/assets/missing.js`)).status, 404);
    const bare = await fetch(`${base}/console`, { redirect: "manual" });
    assert.equal(bare.status, 308);
    assert.equal(bare.headers.get("location"), "/console/");
  });
});
