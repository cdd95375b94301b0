/**
 * `GET /readyz` while PostgreSQL is unreachable (docs/operations.md): the instance reaches its
 * database through a loopback TCP proxy that the test cuts and restores, so the shared
 * server is never stopped. Answers 503 naming the database while cut, 200 once restored.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createThreadline, type Threadline } from "../mod.ts";
import { createTestDatabase, type TestDatabase } from "./support/test_database.ts";
import { pollUntil } from "./support/child_node.ts";

const skip = process.env.DATABASE_URL ? false : "needs PostgreSQL (DATABASE_URL): the embedded database lives in the process and cannot be cut";
if (skip) console.log(`# readiness.test.ts skipped: ${skip}`);

/** A TCP proxy to `target` that can refuse and drop every connection while cut. */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const METRICS_TOKEN = "readiness-metrics-token";

describe("readiness while PostgreSQL is unreachable", { skip }, () => {
  let database: TestDatabase;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let threadline: Threadline;
  before(async () => {
    database = await createTestDatabase("postgres");
    const url = new URL(database.url!);
    proxy = await startProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    threadline = createThreadline({ databaseUrl: url.toString(), dataDir: null, logLevel: "silent", metricsToken: METRICS_TOKEN });
    await threadline.start();
  });
  after(async () => {
    proxy.restore();
    await threadline.close();
    await proxy.close();
    await database.drop();
  });

  const readyz = async (headers: Record<string, string> = {}) => {
    const response = await threadline.fetch(new Request("http://ops.test/readyz", { headers }));
    return { status: response.status, body: (await response.json()) as any };
  };

  test("GET /readyz is 503 naming the database while it is cut, and 200 again once it is back", { timeout: 60_000 }, async () => {
    assert.equal((await readyz()).status, 200);
    proxy.cut();
    const down = await pollUntil(
      "readyz to fail",
      async () => {
        const answer = await readyz();
        return answer.status === 503 ? answer : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    assert.equal(down.body.status, "unavailable");
    assert.deepEqual(down.body.failed, ["database"]);
    assert.equal(down.body.checks.database, "failed", "anyone learns that it failed, not the error text");
    const detailed = await readyz({ authorization: `Bearer ${METRICS_TOKEN}` });
    assert.equal(detailed.status, 503);
    assert.match(detailed.body.checks.database, /^failed: ./, "the metrics token's holder reads why");
    const health = await threadline.fetch(new Request("http://ops.test/healthz"));
    assert.equal(health.status, 200, "the process is still up");
    proxy.restore();
    const up = await pollUntil(
      "readyz to recover",
      async () => {
        const answer = await readyz();
        return answer.status === 200 ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.equal(up.body.checks.database, "ok");
    assert.equal(up.body.checks.migrations, "ok");
  });
});
