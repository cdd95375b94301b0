/**
 * Statements gathered per loop turn (core/db/turn_batches.ts): the calls of one turn on one
 * handle reach the batch function together, in order; calls on another handle or in a later
 * turn form batches of their own; an Error answered in one place rejects only that call.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Queryable } from "../core/db/sql.ts";
import { perTurn } from "../core/db/turn_batches.ts";

/** Stand-ins for two pools: the batcher only uses them as keys and hands them back. */
const poolA = (() => {}) as unknown as Queryable;
const poolB = (() => {}) as unknown as Queryable;

test("the calls of one turn on one handle share a batch; another handle or turn gets its own", async () => {
  const batches: { sql: Queryable; inputs: number[] }[] = [];
  const double = perTurn(async (sql, inputs: readonly number[]) => {
    batches.push({ sql, inputs: [...inputs] });
    return inputs.map((input) => input * 2);
  });
  const first = await Promise.all([double(poolA, 1), double(poolA, 2), double(poolB, 3), double(poolA, 4)]);
  assert.deepEqual(first, [2, 4, 6, 8]);
  assert.deepEqual(
    batches.map((batch) => [batch.sql === poolA ? "A" : "B", batch.inputs]),
    [
      ["A", [1, 2, 4]],
      ["B", [3]],
    ],
  );
  // A later turn: a batch of its own.
  assert.equal(await double(poolA, 5), 10);
  assert.deepEqual(batches.at(-1)?.inputs, [5]);
  // Calls made while a batch is in flight wait for the next one.
  const inFlight = double(poolA, 6);
  await new Promise((resolve) => setImmediate(resolve));
  const next = double(poolA, 7);
  assert.deepEqual(await Promise.all([inFlight, next]), [12, 14]);
  assert.deepEqual(
    batches.slice(-2).map((batch) => batch.inputs),
    [[6], [7]],
  );
});

test("an Error in one place rejects that call only; a thrown error rejects the batch", async () => {
  const checked = perTurn(async (_sql, inputs: readonly number[]) => {
    if (inputs.includes(0)) throw new Error("the statement failed");
    return inputs.map((input) => (input < 0 ? new Error(`negative: ${input}`) : input));
  });
  const mixed = await Promise.allSettled([checked(poolA, 1), checked(poolA, -2), checked(poolA, 3)]);
  assert.deepEqual(
    mixed.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message)),
    [1, "negative: -2", 3],
  );
  const failed = await Promise.allSettled([checked(poolA, 1), checked(poolA, 0)]);
  assert.deepEqual(
    failed.map((result) => (result.status === "rejected" ? (result.reason as Error).message : "fulfilled")),
    ["the statement failed", "the statement failed"],
  );
});
