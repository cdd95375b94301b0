/**
 * `factcheck` on the local engine: it has no source of facts, so the honest answer is
 * `unknown` with one sentence saying why and no sources (supplement section 5: `result`,
 * `comment`, `sources`), rather than a guess dressed as a verdict.
 */
import type { FactcheckInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";

/** The local engine's factcheck answer. */
export function factcheck(input: FactcheckInput): TaskOutput<"factcheck"> {
  // The claim's own end punctuation would end the comment's one sentence early.
  const claim = input.text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?…]+$/, "");
  const quoted = claim.length > 80 ? `${claim.slice(0, 79).replace(/\s+\S*$/, "")}…` : claim;
  return {
    result: "unknown",
    comment: `The local engine has no source of facts to check "${quoted}" against; configure AI_BASE_URL and AI_MODEL for a model that can.`,
    sources: [],
  };
}
