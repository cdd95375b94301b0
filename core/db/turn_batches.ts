/**
 * Statements gathered per loop turn (DataLoader): the calls one turn of the event loop makes
 * on the same pool join one call of a batch function, which answers them all with one
 * statement (`unnest`, `jsonb_to_recordset`). Under a burst (the publisher's lane runs a
 * hundred posts at once) a round trip per call becomes about one per turn; a lone call waits
 * only for the end of its turn. Batches never mix pools, so a batch started on a transaction
 * handle stays in that transaction.
 */
import DataLoader from "dataloader";
import type { Queryable } from "./sql.ts";

/** The most calls one batch carries; more start the next batch at once. */
const MAX_BATCH = 200;

/**
 * Batches `run` per loop turn and per `sql`: answers a function taking one input and
 * resolving to its output. `run` answers the outputs in the inputs' order (an Error in a
 * place rejects only that call); a thrown error rejects every call of the batch.
 *
 * @example
 * const claimOne = perTurn((sql, claims: Claim[]) => claimMany(sql, claims));
 * const row = await claimOne(sql, claim);
 */
export function perTurn<Handle extends Queryable, Input, Output>(
  run: (sql: Handle, inputs: readonly Input[]) => Promise<(Output | Error)[]>,
): (sql: Handle, input: Input) => Promise<Output> {
  const loaders = new WeakMap<Handle, DataLoader<Input, Output>>();
  return (sql, input) => {
    let loader = loaders.get(sql);
    if (!loader) {
      loader = new DataLoader<Input, Output>((inputs) => run(sql, inputs), {
        cache: false,
        maxBatchSize: MAX_BATCH,
        // The check phase, after the poll phase that delivered this turn's replies: every call
        // their callbacks make before waiting on I/O joins the batch.
        batchScheduleFn: (dispatch) => setImmediate(dispatch),
      });
      loaders.set(sql, loader);
    }
    return loader.load(input);
  };
}
