/** `dataset_refine` on the local engine. BEING BUILT: helper C replaces this file. */
import type { DatasetRefineInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";

/** A verdict per row. */
export function judgeRows(_input: DatasetRefineInput): TaskOutput<"dataset_refine"> {
  throw new Error("dataset_refine is being built");
}
