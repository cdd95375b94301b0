/**
 * The tasks that answer data rather than prose (factcheck, keyword suggestion, ICP
 * expansion, lead scoring) answer JSON text in these shapes, from either engine. Parsing lives here so
 * an endpoint reads both engines the same way, and a remote model's malformed answer is
 * a `ModelFailedError` (no output, full refund) rather than a 500.
 */
import { z } from "zod";
import { ModelFailedError } from "./model_errors.ts";

/** `POST /v1/tools/factcheck`: `result` (`true`, `false`, `unknown`), a one-sentence `comment`, `sources` (supplement section 5). */
export const factcheckOutput = z.object({
  result: z.enum(["true", "false", "unknown"]),
  comment: z.string().min(1),
  sources: z.array(z.string()),
});

/** Keyword suggestion: 1 or more terms, best first. */
export const keywordSuggestionOutput = z.object({ keywords: z.array(z.string().min(1)).min(1) });

/**
 * ICP expansion: a fuller description, keywords to watch, the roles to look for, and the
 * criteria of a scoring rubric (`POST /v1/signals/icp/expand`). The criteria default to
 * none, so a model that answers only the first three fields is still read.
 */
export const icpExpansionOutput = z.object({
  description: z.string().min(1),
  keywords: z.array(z.string().min(1)),
  roles: z.array(z.string().min(1)),
  must_have: z.array(z.string().min(1)).default([]),
  nice_to_have: z.array(z.string().min(1)).default([]),
  disqualifiers: z.array(z.string().min(1)).default([]),
});

/**
 * Lead scoring: one entry per candidate judged. Lenient where a model's habit is harmless
 * (a numeric id, a fractional score is rounded, a rationale over several lines is joined),
 * strict where it matters (an id and a score in 0-100 on every entry).
 */
export const leadScoringOutput = z.object({
  leads: z.array(
    z.object({
      id: z.union([z.string().min(1), z.number()]).transform(String),
      score: z.number().min(0).max(100).transform(Math.round),
      rationale: z
        .string()
        .transform((text) => text.replace(/\s+/g, " ").trim())
        .pipe(z.string().min(1)),
    }),
  ),
});

/**
 * Profile research: the brief and the hooks. Each hook names the post it quotes; core keeps a
 * hook only when its quote appears verbatim in that post (docs/areas.md "Datasets": a quote that is not
 * verbatim is dropped).
 */
export const profileResearchOutput = z.object({
  summary: z.string().min(1),
  topics: z.array(z.string().min(1)).default([]),
  tone: z.string().min(1),
  recent_themes: z.array(z.string().min(1)).default([]),
  hooks: z
    .array(
      z.object({
        post_id: z.union([z.string().min(1), z.number()]).transform(String),
        quote: z.string().min(1),
      }),
    )
    .default([]),
});

/** Refine: a verdict per row judged; `unclear` when the row's text cannot say. */
export const datasetRefineOutput = z.object({
  rows: z.array(
    z.object({
      id: z.union([z.string().min(1), z.number()]).transform(String),
      verdict: z.enum(["match", "no_match", "unclear"]),
    }),
  ),
});

const SCHEMAS = {
  factcheck: factcheckOutput,
  keyword_suggestion: keywordSuggestionOutput,
  icp_expansion: icpExpansionOutput,
  lead_scoring: leadScoringOutput,
  profile_research: profileResearchOutput,
  dataset_refine: datasetRefineOutput,
};

/** A task whose output is JSON. */
export type StructuredTask = keyof typeof SCHEMAS;

/** The parsed output of a structured task. */
export type TaskOutput<T extends StructuredTask> = z.infer<(typeof SCHEMAS)[T]>;

/** Whether `task` answers JSON. */
export function isStructuredTask(task: string): task is StructuredTask {
  return task in SCHEMAS;
}

/**
 * Parses a structured task's output. Models often wrap JSON in a code fence or a
 * sentence; the first `{...}` block is taken.
 */
export function parseTaskOutput<T extends StructuredTask>(task: T, text: string): TaskOutput<T> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let value: unknown;
  try {
    value = JSON.parse(start >= 0 && end > start ? text.slice(start, end + 1) : text);
  } catch (cause) {
    throw new ModelFailedError(`The model's answer to "${task}" was not JSON`, { cause, detail: text.slice(0, 500) });
  }
  const parsed = SCHEMAS[task].safeParse(value);
  if (!parsed.success) {
    throw new ModelFailedError(`The model's answer to "${task}" did not have the expected fields`, { detail: text.slice(0, 500) });
  }
  return parsed.data as TaskOutput<T>;
}
