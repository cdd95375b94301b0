/** `profile_research` on the local engine. BEING BUILT: helper B replaces this file. */
import type { ProfileResearchInput } from "../../../core/model/task_inputs.ts";
import type { TaskOutput } from "../../../core/model/task_output.ts";

/** The brief and hooks of one person. */
export function researchProfile(_input: ProfileResearchInput): TaskOutput<"profile_research"> {
  throw new Error("profile_research is being built");
}
