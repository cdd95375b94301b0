/**
 * A handler whose answer breaks its own output schema is the server's fault: `500
 * internal_error` without internals, marked `unexpected` for the log. Only input
 * validation is `400 invalid_parameter` (docs/operations.md).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { startHarness, type Harness } from "./support/harness.ts";
import { createHttpApp } from "../adapters/http/create_http_app.ts";
import { keyProcedure, router } from "../core/trpc.ts";
import { toApiFailure } from "../core/api_failure.ts";
import { createContextInner } from "../core/context.ts";

let harness: Harness;
before(async () => {
  harness = await startHarness();
});
after(() => harness.close());

const probe = router({
  lying: keyProcedure
    .meta({ openapi: { method: "GET", path: "/v1/probe/lying" } })
    .input(z.object({ limit: z.number().int().max(5).optional() }))
    .output(z.object({ data: z.object({ secret_count: z.number() }) }))
    .query(() => ({ data: { secret_count: "not a number" } }) as never),
});

async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => {};
  try {
    return await run();
  } finally {
    console.error = original;
  }
}

test("an answer that breaks the output schema is 500 internal_error on REST and tRPC, naming no response field", async () => {
  const app = createHttpApp(probe, harness.services);
  const headers = { Authorization: `Bearer ${harness.world.keys.write}` };
  const rest = await quietly(async () => app.fetch(new Request("http://probe.test/v1/probe/lying", { headers })));
  assert.equal(rest.status, 500);
  assert.deepEqual(await rest.json(), { error: { code: "internal_error", message: "Internal server error" } });
  const trpc = await quietly(async () => app.fetch(new Request("http://probe.test/trpc/lying?input=%7B%7D", { headers })));
  const body = await trpc.json();
  assert.equal(trpc.status, 500);
  assert.equal(body.error.data.code, "internal_error");
  assert.doesNotMatch(JSON.stringify(body), /secret_count/);
});

test("the same procedure's bad input is still 400 invalid_parameter naming the field", async () => {
  const app = createHttpApp(probe, harness.services);
  const rest = await app.fetch(new Request("http://probe.test/v1/probe/lying?limit=9", { headers: { Authorization: `Bearer ${harness.world.keys.write}` } }));
  const body = await rest.json();
  assert.equal(rest.status, 400);
  assert.equal(body.error.code, "invalid_parameter");
  assert.match(body.error.message, /"limit"/);
});

test("toApiFailure marks an output validation failure unexpected, and input validation not", async () => {
  const caller = probe.createCaller(
    createContextInner({ services: harness.services, headers: { Authorization: `Bearer ${harness.world.keys.write}` }, ip: "198.51.100.9" }),
  );
  const output = await caller.lying({}).catch((error: unknown) => error);
  const outputFailure = toApiFailure(output);
  assert.equal(outputFailure.status, 500);
  assert.equal(outputFailure.code, "internal_error");
  assert.ok(outputFailure.unexpected, "an output violation is logged as unexpected");
  const input = await caller.lying({ limit: 9 }).catch((error: unknown) => error);
  const inputFailure = toApiFailure(input);
  assert.equal(inputFailure.status, 400);
  assert.equal(inputFailure.unexpected, undefined);
});
