/**
 * The structured fields each task takes. Callers pass facts (the text, the voice, the
 * products, the world's vocabulary); each engine decides how to use them, and the
 * prompts for a remote model are built from the same fields (`prompts.ts`).
 */
import type { InlineEditType, RephraseType } from "./model_task.ts";
import type { VoiceProfile } from "./voice_profile.ts";

/** One of the account's products (`/v1/context/products`), as context for writing. */
export interface ProductContext {
  name: string;
  description?: string | null;
  positioning?: string | null;
  url?: string | null;
}

/**
 * The account's standing rules from its context (`rules`, "No hashtags" say): a remote
 * model is told to follow them; the local engine applies the formatting ones it can.
 */
export interface WritingRules {
  rules?: string | null;
}

/** `POST /v1/tools/rephrase`: the whole post; `voice` is used by the eight style presets. */
export interface RephraseInput extends WritingRules {
  text: string;
  voice?: VoiceProfile;
  /** `translate` only: the language to translate into (default English). */
  targetLanguage?: string;
}

/** `POST /v1/tools/inline-edit`: edit `text` (a selection of `fullText`) by type or instruction. */
export interface InlineEditInput extends WritingRules {
  text: string;
  fullText?: string;
  instruction?: string;
  editType?: InlineEditType;
  voice?: VoiceProfile;
}

/** `POST /v1/tools/factcheck`. */
export interface FactcheckInput {
  text: string;
}

/**
 * `POST /v1/posts/remix`: `closeness` 0 keeps only the idea, 100 stays close to the
 * wording; `ownPost` (the account's own handle) keeps subject, products, names, numbers.
 */
export interface RemixInput extends WritingRules {
  text: string;
  closeness: number;
  instructions?: string;
  ownPost: boolean;
  voice?: VoiceProfile;
  products?: ProductContext[];
}

/** `POST /v1/posts/draft`: one draft from a brief, optionally in a mirror's shape. */
export interface DraftInput extends WritingRules {
  brief: string;
  mirror?: string;
  instructions?: string;
  voice?: VoiceProfile;
  products?: ProductContext[];
}

/** `POST /v1/engage/reply-draft`: a reply to `post`. */
export interface ReplyDraftInput extends WritingRules {
  post: string;
  authorHandle?: string;
  /** The author's display name, when known. */
  authorName?: string;
  /** What the user wants to say (their own view; the reply keeps it). */
  thoughts?: string;
  instructions?: string;
  voice?: VoiceProfile;
}

/** Who an outreach message goes to, from a dataset row. */
export interface OutreachRecipient {
  handle?: string | null;
  name?: string | null;
  bio?: string | null;
}

/**
 * Outreach drafts: a message following `format` for one recipient; `hook` is a real
 * quote from the recipient's brief, absent when it had no usable hook (then the
 * message makes no personal claims: the spec's `generic` count).
 */
export interface OutreachInput {
  format: string;
  instructions?: string;
  recipient: OutreachRecipient;
  hook?: string | null;
  products?: ProductContext[];
}

/** `POST /v1/signals/keywords/suggest`: terms from `vocabulary` that fit the ICP. */
export interface KeywordSuggestionInput {
  icp: string;
  /** Terms people in the network really use (the simulated world's topics, say). */
  vocabulary: readonly string[];
  /** At most this many keywords (default 3: signal agents take 1 to 3). */
  max?: number;
}

/** `POST /v1/signals/icp/expand`: a fuller ideal-customer description. */
export interface IcpExpansionInput {
  icp: string;
  vocabulary: readonly string[];
}

/** `POST /v1/context/style-guide/regenerate`: the account's recent posts. */
export interface StyleGuideInput {
  posts: readonly string[];
}

/** A person to judge against the ICP: their profile and the post that made them a candidate. */
export interface LeadScoringCandidate {
  /** The caller's id for the candidate, echoed back with its score. */
  id: string;
  name: string;
  username: string;
  bio: string;
  followers: number;
  /** The triggering post; null when the person became a candidate without one (a new follower). */
  text: string | null;
}

/**
 * Lead search and signal agents: how well each candidate fits the ideal customer profile.
 * `examples` are the profile and post texts of leads the user marked fit or not fit; they
 * shift the scores toward people like the fit ones and away from the others.
 */
export interface LeadScoringInput {
  icp: string;
  offer?: string;
  examples?: { fit: string[]; notFit: string[] };
  candidates: LeadScoringCandidate[];
}

/**
 * Research (`POST /v1/datasets` with `source: research`): a brief of one person from their
 * profile and recent posts, and hooks that quote those posts word for word (core checks every
 * quote against the post it names and drops the rest).
 */
export interface ProfileResearchInput {
  /** What the user wants to learn about them (`focus`), when given. */
  focus?: string;
  person: { handle: string; name: string; bio: string };
  /** Their recent original posts, newest first; `id` is what a hook names. */
  posts: { id: string; text: string }[];
}

/** Refine: whether each row's own text meets the criterion. */
export interface DatasetRefineInput {
  criterion: string;
  /** The caller's id for each row, echoed back with its verdict. */
  rows: { id: string; text: string }[];
}

/** The input of every task. */
export type TaskInputs = { [T in RephraseType]: RephraseInput } & {
  inline_edit: InlineEditInput;
  factcheck: FactcheckInput;
  remix: RemixInput;
  draft: DraftInput;
  reply_draft: ReplyDraftInput;
  outreach_message: OutreachInput;
  keyword_suggestion: KeywordSuggestionInput;
  icp_expansion: IcpExpansionInput;
  style_guide: StyleGuideInput;
  lead_scoring: LeadScoringInput;
  profile_research: ProfileResearchInput;
  dataset_refine: DatasetRefineInput;
};
