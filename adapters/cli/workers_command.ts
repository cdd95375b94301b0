/**
 * `threadline workers create`: how an operator creates a Worker. The API has no create
 * (spec rule 7: Workers are made in the companion app, which this repository does not
 * include), so this command stands in for the app; the rules live in core
 * (core/workers/create_worker.ts) and refuse a bad Worker with the field named.
 */
import type { Services } from "../../core/context.ts";
import { createWorker, type WorkerInput } from "../../core/workers/create_worker.ts";
import { toWorker } from "../../core/workers/worker_view.ts";
import { type Args, integerFlag, requiredFlag, stringFlag } from "./args.ts";

/** Creates a Worker from the command line; answers its list record. */
export async function createWorkerCommand(services: Services, args: Args) {
  const list = (name: string) =>
    stringFlag(args, name)
      ?.split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  const days = list("days")?.map(Number);
  const time = stringFlag(args, "time");
  const input = {
    name: requiredFlag(args, "name"),
    shape: requiredFlag(args, "shape"),
    topic_source: requiredFlag(args, "topic-source"),
    product_id: integerFlag(args, "product"),
    topic: stringFlag(args, "topic"),
    keywords: list("keywords"),
    style_mode: stringFlag(args, "style-mode"),
    voice: stringFlag(args, "voice"),
    creator: stringFlag(args, "creator"),
    batch_size: integerFlag(args, "batch-size"),
    schedule: days || time ? { days: days ?? [1, 2, 3, 4, 5], time: time ?? "09:00" } : undefined,
    timezone: stringFlag(args, "timezone"),
    active: args.flags.inactive === true ? false : undefined,
  } as WorkerInput;
  const row = await createWorker(services.sql, requiredFlag(args, "account"), input, new Date(services.clock.now()));
  return { data: toWorker(row) };
}
