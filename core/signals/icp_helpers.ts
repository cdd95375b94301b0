/**
 * The free ICP helpers (docs/areas.md "Signals"; spec AI credits: "Free AI calls"): keyword ideas
 * and the scoring rubric of an ideal-customer description, from the model's
 * `keyword_suggestion` and `icp_expansion` tasks with the network's vocabulary (the
 * simulated world's topics; none on X API). Nothing is stored.
 */
import type { Services } from "../context.ts";
import { modelApiError } from "../model/model_api_error.ts";
import { parseTaskOutput, type StructuredTask, type TaskOutput } from "../model/task_output.ts";
import type { TaskInputs } from "../model/task_inputs.ts";
import { icpPhrases } from "./icp_phrases.ts";
import { type IcpRubric, KEYWORD_IDEAS, KEYWORD_MAX_CHARS } from "./icp_schema.ts";
import { PRECISION_THRESHOLD } from "./signal_schema.ts";

/** What the helpers need: the model and the network's vocabulary. */
export type IcpHelperServices = Pick<Services, "model" | "network">;

/** Points the must-haves share when there are nice-to-haves: meeting all of them reaches `high` (70). */
const MUST_HAVE_POINTS = PRECISION_THRESHOLD.high;

/**
 * Up to `max` keyword ideas for `icp`, best first, and at least `min(2, max)`
 * (supplement: "returns 2 or 3 keyword ideas"). The model's answer comes first; when it
 * gives fewer, the list is completed from the ICP's own phrases (`icp_phrases.ts`), and
 * when the ICP is one word that the model already gave, from its hashtag (`#dentists`),
 * a distinct search on X that says nothing the ICP did not. An ICP without a searchable
 * word (refused by the endpoints' `helperIcp`) can answer fewer. Model failures are
 * thrown as their API errors (`modelApiError`).
 */
export async function suggestKeywords(services: IcpHelperServices, icp: string, max: number = KEYWORD_IDEAS.max): Promise<string[]> {
  const vocabulary = services.network.vocabulary?.() ?? [];
  const { keywords } = await structured(services, "keyword_suggestion", { icp, vocabulary, max });
  return completeKeywords(keywords, icp, max);
}

/** The model's keywords cleaned (trimmed, at most 180 characters, no repeats), completed to `min(2, max)` from the ICP. */
export function completeKeywords(fromModel: readonly string[], icp: string, max: number): string[] {
  const wanted = Math.min(KEYWORD_IDEAS.min, max);
  const kept: string[] = [];
  const add = (candidate: string) => {
    const keyword = candidate.replace(/\s+/g, " ").trim();
    if (keyword && keyword.length <= KEYWORD_MAX_CHARS && kept.length < max && !kept.some((k) => k.toLowerCase() === keyword.toLowerCase())) kept.push(keyword);
  };
  for (const keyword of fromModel) add(keyword);
  for (const phrase of icpPhrases(icp)) if (kept.length < wanted) add(phrase);
  if (kept.length < wanted) {
    const tag = (kept[0] ?? "").replace(/[^\p{L}\p{N}_]/gu, "");
    if (tag) add(`#${tag}`);
  }
  return kept;
}

/**
 * The scoring rubric of `icp`: the model's expansion (description, roles, keywords and the
 * criteria it read from the ICP) with points. The must-haves share 70 points and the
 * nice-to-haves 30 (the must-haves 100 when there is nothing nice to have), split evenly
 * with the remainder on the first ones, so a lead meeting every must-have reaches the
 * `high` threshold and points always add up to 100. Disqualifiers carry no points: one
 * scores the lead 0.
 */
export async function expandIcp(services: IcpHelperServices, icp: string): Promise<IcpRubric> {
  const vocabulary = services.network.vocabulary?.() ?? [];
  const expansion = await structured(services, "icp_expansion", { icp, vocabulary });
  return rubricOf(expansion, icp);
}

/** The rubric of an expansion (exported for tests of the points). */
export function rubricOf(expansion: TaskOutput<"icp_expansion">, icp: string): IcpRubric {
  const clean = (items: readonly string[]) => [...new Set(items.map((item) => item.replace(/\s+/g, " ").trim()).filter(Boolean))];
  const niceToHave = clean(expansion.nice_to_have);
  // A model that named no must-have still gets a rubric: matching the ICP itself is the criterion.
  const mustHave = clean(expansion.must_have).length ? clean(expansion.must_have) : [`Matches "${icp.trim().slice(0, 100)}"`];
  const mustPoints = niceToHave.length ? MUST_HAVE_POINTS : 100;
  const scoring = [...share(mustHave, mustPoints), ...share(niceToHave, 100 - mustPoints)];
  return {
    description: expansion.description.trim(),
    roles: clean(expansion.roles),
    must_have: mustHave,
    nice_to_have: niceToHave,
    disqualifiers: clean(expansion.disqualifiers),
    keywords: clean(expansion.keywords),
    scoring,
    thresholds: { high: PRECISION_THRESHOLD.high, discovery: PRECISION_THRESHOLD.discovery },
  };
}

/** `points` split evenly over `criteria`, the remainder one each to the first. */
function share(criteria: string[], points: number): IcpRubric["scoring"] {
  const base = Math.floor(points / criteria.length);
  const rest = points - base * criteria.length;
  return criteria.map((criterion, i) => ({ criterion, points: base + (i < rest ? 1 : 0) }));
}

/** Runs a structured task and parses its answer; a model failure becomes its API error. */
async function structured<T extends StructuredTask>(services: IcpHelperServices, task: T, input: TaskInputs[T]): Promise<TaskOutput<T>> {
  try {
    const result = await services.model.generate({ task, input } as Parameters<IcpHelperServices["model"]["generate"]>[0]);
    return parseTaskOutput(task, result.text);
  } catch (error) {
    throw modelApiError(error) ?? error;
  }
}
