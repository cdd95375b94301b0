/**
 * The soak's mixed load through the balancer, per user: REST reads and tag writes, posts and
 * threads due a minute and a few seconds later (the spec's lead time: at least 60 s ahead),
 * DM campaigns to fresh people, dataset collections, and AI calls spending credits. Writes
 * carry an `Idempotency-Key` and are sent again with it when the answer was lost (a killed
 * process, a restarting database): the audit then finds whether any was done twice.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";

/** A user the load acts as. */
export interface SoakUser {
  label: string;
  key: string;
  ownerId: string;
  userId: number;
}

/** What the load saw. */
export interface LoadFigures {
  requests: number;
  /** Answers by status (0: no answer: connection refused or dropped). */
  statuses: Record<string, number>;
  latenciesMs: number[];
  /**
   * Failed answers by `<status> <method> <path> <error code>` (HAProxy's own answers have no JSON
   * body): how many, and the seconds into the load of the first and the last.
   */
  errors: Record<string, { count: number; first_s: number; last_s: number }>;
  postsCreated: number;
  campaignsCreated: number;
  datasetsCreated: number;
  aiCalls: number;
  /** Credits the answers said were charged (`X-Credits-Charged` on 2xx). */
  creditsCharged: Record<string, number>;
}

/** How the load is paced (ms between actions of one user). */
export interface LoadPacing {
  readEveryMs: number;
  tagEveryMs: number;
  postEveryMs: number;
  campaignEveryMs: number;
  datasetEveryMs: number;
  aiEveryMs: number;
}

/** The people each user's DM campaigns write to (fresh ones per campaign), and the post datasets collect from. */
export interface LoadWorld {
  dmRecipients: string[];
  datasetTarget: string;
}

/** Runs the load until `signal` aborts; answers the figures. */
export async function runSoakLoad(base: string, users: SoakUser[], world: LoadWorld, pacing: LoadPacing, signal: AbortSignal): Promise<LoadFigures> {
  const figures: LoadFigures = {
    requests: 0,
    statuses: {},
    latenciesMs: [],
    errors: {},
    postsCreated: 0,
    campaignsCreated: 0,
    datasetsCreated: 0,
    aiCalls: 0,
    creditsCharged: {},
  };
  const loadStart = Date.now();
  const call = async (user: SoakUser, method: string, path: string, body?: unknown, idempotencyKey?: string) => {
    const start = performance.now();
    let status = 0;
    let json: any;
    let charged = 0;
    try {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${user.key}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      json = await response.json().catch(() => undefined);
      charged = Number(response.headers.get("x-credits-charged") ?? 0);
    } catch {
      status = 0;
    }
    figures.requests++;
    figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
    if (status !== 0) figures.latenciesMs.push(performance.now() - start);
    if (status === 0 || status >= 400) {
      const what = `${status} ${method} ${path.split("?")[0]} ${json?.error?.code ?? (status === 0 ? "no answer" : "no JSON body")}`;
      const at = Math.round((Date.now() - loadStart) / 1000);
      const seen = (figures.errors[what] ??= { count: 0, first_s: at, last_s: at });
      seen.count++;
      seen.last_s = at;
    }
    if (status >= 200 && status < 300 && charged > 0) figures.creditsCharged[user.ownerId] = (figures.creditsCharged[user.ownerId] ?? 0) + charged;
    return { status, json };
  };
  /** A write sent until it is answered (the same key each time), for at most 6 tries. */
  const write = async (user: SoakUser, path: string, body: unknown) => {
    const key = randomBytes(8).toString("hex");
    for (let attempt = 0; attempt < 6 && !signal.aborted; attempt++) {
      const answer = await call(user, "POST", path, body, key);
      const inFlight = answer.status === 409 && answer.json?.error?.code === "idempotency_in_flight";
      if (answer.status !== 0 && !inFlight && answer.status < 500) return answer;
      await pause(1_000, signal);
    }
    return { status: 0, json: undefined };
  };
  const every = async (ms: number, action: (n: number) => Promise<void>) => {
    // Spread the users' first actions over the period so the load is even.
    await pause(Math.random() * ms, signal);
    for (let n = 0; !signal.aborted; n++) {
      const started = Date.now();
      await action(n);
      await pause(Math.max(0, ms - (Date.now() - started)), signal);
    }
  };
  let recipientCursor = 0;
  const loops = users.flatMap((user) => [
    every(pacing.readEveryMs, async (n) => {
      const paths = ["/v1/tags?limit=20", "/v1/scheduled-posts?limit=20", "/v1/me", "/v1/dm/limits"];
      await call(user, "GET", paths[n % paths.length]);
    }),
    every(pacing.tagEveryMs, async () => {
      await write(user, "/v1/tags", { name: `soak ${randomBytes(5).toString("hex")}` });
    }),
    every(pacing.postEveryMs, async (n) => {
      const marker = `${user.label} ${n} ${randomBytes(4).toString("hex")}`;
      // A minute and 2 to 7 s ahead: the spec's lead time, plus the answer's way back.
      const scheduledFor = new Date(Date.now() + 62_000 + Math.random() * 5_000).toISOString();
      const body =
        n % 3 === 2
          ? { parts: [1, 2, 3].map((part) => ({ text: `Soak thread ${marker} part ${part}/3` })), scheduled_for: scheduledFor }
          : { text: `Soak post ${marker}`, scheduled_for: scheduledFor };
      const answer = await write(user, "/v1/scheduled-posts", body);
      if (answer.status === 201) figures.postsCreated++;
    }),
    every(pacing.campaignEveryMs, async () => {
      const recipients = world.dmRecipients.slice(recipientCursor, recipientCursor + 3);
      recipientCursor += 3;
      if (recipients.length === 0) return;
      const answer = await write(user, "/v1/dm/campaigns", {
        message: "Thanks for reading, [first]",
        recipients: recipients.map((x_user_id) => ({ x_user_id })),
      });
      if (answer.status === 201) figures.campaignsCreated++;
    }),
    every(pacing.datasetEveryMs, async () => {
      const answer = await write(user, "/v1/datasets", { source: "repliers", target: world.datasetTarget, max_rows: 40 });
      if (answer.status === 201 || answer.status === 202) figures.datasetsCreated++;
    }),
    every(pacing.aiEveryMs, async (n) => {
      const answer = await write(user, "/v1/tools/rephrase", { type: "concise", text: `Shipping small changes every day beats a big launch, take ${n}.` });
      if (answer.status === 200) figures.aiCalls++;
    }),
  ]);
  await Promise.all(loops);
  return figures;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
