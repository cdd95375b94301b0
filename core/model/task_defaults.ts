/**
 * Per-task defaults for remote models: output bound and sampling temperature. Fixing
 * tasks (grammar, concision, structured answers) run cool so they stay close to the
 * input; style presets and drafts run warmer so they read as writing, not as edits.
 */
import type { ModelTask } from "./model_task.ts";

/** The defaults of one task. */
export interface TaskDefaults {
  maxTokens: number;
  temperature: number;
}

const EDIT = { maxTokens: 700, temperature: 0.2 };
const STYLE = { maxTokens: 700, temperature: 0.8 };
const STRUCTURED = { maxTokens: 400, temperature: 0 };

const DEFAULTS: Record<ModelTask, TaskDefaults> = {
  improve: { maxTokens: 700, temperature: 0.5 },
  hook: STYLE,
  engaging: STYLE,
  humorous: STYLE,
  positive: STYLE,
  creative: { maxTokens: 700, temperature: 0.9 },
  sarcastic: STYLE,
  inspirational: STYLE,
  grammar: { maxTokens: 700, temperature: 0 },
  translate: EDIT,
  clarity: EDIT,
  details: { maxTokens: 900, temperature: 0.5 },
  concise: EDIT,
  inline_edit: { maxTokens: 500, temperature: 0.4 },
  factcheck: STRUCTURED,
  remix: { maxTokens: 900, temperature: 0.7 },
  draft: { maxTokens: 900, temperature: 0.7 },
  reply_draft: { maxTokens: 300, temperature: 0.7 },
  outreach_message: { maxTokens: 400, temperature: 0.5 },
  keyword_suggestion: STRUCTURED,
  icp_expansion: { maxTokens: 600, temperature: 0.3 },
  style_guide: { maxTokens: 1200, temperature: 0.3 },
  // A line of about 40 tokens per candidate, 20 candidates per call (core/signals/lead_scoring.ts).
  lead_scoring: { maxTokens: 1500, temperature: 0 },
  // A brief and up to 3 hooks of about 40 tokens each.
  profile_research: { maxTokens: 700, temperature: 0.2 },
  // A short line per row, 25 rows per call (core/datasets/refine_dataset.ts).
  dataset_refine: { maxTokens: 800, temperature: 0 },
};

/** The defaults for `task`. */
export function taskDefaults(task: ModelTask): TaskDefaults {
  return DEFAULTS[task];
}
