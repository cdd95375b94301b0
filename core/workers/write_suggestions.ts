/**
 * What one Worker run writes: `batch_size` suggestions through the Model port, by shape.
 * - `formats`: the topic drafted in proven formats (format_templates.ts), one per suggestion.
 * - `niche`: remixes of popular posts the network's search finds on the Worker's keywords
 *   (someone else's post: its idea, not its names, numbers or links); a slot with no
 *   usable popular post is written from a proven format and marked `fallback` (spec:
 *   Worker suggestion, `reference`).
 * - `fresh`: drafts from the account's context (products, interests, profile description).
 * Nothing here charges credits (supplement 3.3: Workers are free) or touches the database
 * beyond reads; the run commits what this answers (run_worker.ts).
 */
import type { Queryable } from "../db/sql.ts";
import type { Model } from "../model/model.ts";
import type { ProductContext } from "../model/task_inputs.ts";
import { sentencesOf } from "../model/text_units.ts";
import { voiceProfile, type VoiceProfile } from "../model/voice_profile.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { NetworkPost } from "../network/network_records.ts";
import { NetworkNotFoundError, NetworkPrivateError } from "../network/network_errors.ts";
import { postUrl } from "../network/post_url.ts";
import { activeProducts, type ProductRow } from "../account_context/context_queries.ts";
import { contextSettingsOf } from "../account_context/account_context.ts";
import type { ContextSettings } from "../account_context/context_schema.ts";
import { accountHasPremium } from "../scheduling/scheduled_posts_queries.ts";
import { STANDARD_PART_LENGTH } from "../scheduling/post_content.ts";
import { FORMAT_TEMPLATES } from "./format_templates.ts";
import type { NewSuggestion, WorkerRow } from "./workers_queries.ts";
import { DAY_MS } from "../time/durations.ts";

/** What a run reads and writes with. */
export interface WriterDeps {
  sql: Queryable;
  network: SocialNetwork;
  model: Model;
  now: Date;
}

/** A popular post has at least this many likes (the same floor as triage's). */
export const POPULAR_MIN_LIKES = 30;
/** How recent a popular post is (a week: X's recent search reaches 7 days; fresher posts are the niche's current talk). */
const POPULAR_WINDOW_DAYS = 7;
/** Posts read when looking for popular posts in a niche (one search page). */
const SEARCH_PAGE = 100;
/** Own posts (or a creator's) the voice is measured from. */
const VOICE_SAMPLE = 40;
/** `fresh` suggestions vary by angle; each is an instruction the local engine can follow. */
const FRESH_ANGLES = [undefined, "add a question", "stronger hook", "make it shorter", "more detail"] as const;
/** Remix closeness for a niche suggestion: the idea and points in a new shape (spec: remix). */
const NICHE_CLOSENESS = 50;

/** What the account writes with, read once per run. */
interface WritingFacts {
  settings: ContextSettings;
  products: ProductRow[];
  voice: VoiceProfile | undefined;
  premium: boolean;
}

/** Writes one run's suggestions for `worker`, in batch order. */
export async function writeSuggestions(deps: WriterDeps, worker: WorkerRow): Promise<NewSuggestion[]> {
  const facts = await writingFacts(deps, worker);
  // Each run starts at a different template or angle, so consecutive runs do not repeat.
  const offset = Math.floor(deps.now.getTime() / DAY_MS);
  if (worker.shape === "formats") {
    const brief = topicBrief(worker, facts);
    return Promise.all(Array.from({ length: worker.batch_size }, (_, i) => fromFormat(deps, worker, facts, brief, offset + i, false)));
  }
  if (worker.shape === "niche") {
    const posts = await popularPosts(deps, worker);
    const brief = topicBrief(worker, facts);
    return Promise.all(
      Array.from({ length: worker.batch_size }, (_, i) =>
        i < posts.length ? fromPopularPost(deps, facts, posts[i]) : fromFormat(deps, worker, facts, brief, offset + i, true),
      ),
    );
  }
  const briefs = freshBriefs(worker, facts);
  return Promise.all(
    Array.from({ length: worker.batch_size }, (_, i) => {
      const source = briefs[(offset + i) % briefs.length];
      const angle = FRESH_ANGLES[Math.floor(i / briefs.length) % FRESH_ANGLES.length];
      return fitted(deps, facts, (instructions) => ({
        task: "draft",
        input: {
          brief: source.brief,
          instructions: join(angle, instructions),
          voice: facts.voice,
          products: productContexts(facts),
          rules: facts.settings.rules,
        },
      })).then(
        (text): NewSuggestion => ({
          text,
          reference: source.productId === undefined ? { source: "context" } : { source: "product", product_id: source.productId },
          fallback: false,
        }),
      );
    }),
  );
}

async function fromFormat(deps: WriterDeps, _worker: WorkerRow, facts: WritingFacts, brief: string, index: number, fallback: boolean): Promise<NewSuggestion> {
  const template = FORMAT_TEMPLATES[index % FORMAT_TEMPLATES.length];
  const text = await fitted(deps, facts, (instructions) => ({
    task: "draft",
    input: { brief, mirror: template.example, instructions, voice: facts.voice, products: productContexts(facts), rules: facts.settings.rules },
  }));
  return { text, reference: { source: "format", format: template.id }, fallback };
}

async function fromPopularPost(deps: WriterDeps, facts: WritingFacts, post: NetworkPost & { username?: string }): Promise<NewSuggestion> {
  const text = await fitted(deps, facts, (instructions) => ({
    task: "remix",
    input: {
      text: post.text,
      closeness: NICHE_CLOSENESS,
      ownPost: false,
      instructions,
      voice: facts.voice,
      products: productContexts(facts),
      rules: facts.settings.rules,
    },
  }));
  return {
    text,
    reference: { source: "popular_post", post_id: post.id, author_id: post.authorId, ...(post.username ? { url: postUrl(post.username, post.id) } : {}) },
    fallback: false,
  };
}

type TextRequest = Parameters<Model["generate"]>[0];

/**
 * Generates a text; on an account without the network's premium tier a text over 280
 * characters is asked once more, shorter (saving it would otherwise be refused with
 * `400 invalid_request`, spec: Errors).
 */
async function fitted(deps: WriterDeps, facts: WritingFacts, request: (instructions?: string) => TextRequest): Promise<string> {
  const first = (await deps.model.generate(request())).text.trim();
  if (facts.premium || [...first].length <= STANDARD_PART_LENGTH) return first;
  const shorter = (await deps.model.generate(request("make it shorter"))).text.trim();
  return [...shorter].length < [...first].length ? shorter : first;
}

/** The topic as a brief: the product's facts, the custom topic, or the niche's keywords. */
function topicBrief(worker: WorkerRow, facts: WritingFacts): string {
  const config = worker.topic_config;
  if (worker.topic_source === "product") {
    const product = facts.products.find((row) => row.id === config.product_id);
    if (product) return productBrief(product);
  }
  if (worker.topic_source === "custom" && config.topic) return config.topic;
  const keywords = config.keywords ?? [];
  const interests = facts.settings.interests.filter((interest) => !keywords.some((word) => word.toLowerCase() === interest.toLowerCase()));
  return [...keywords, ...interests].map((term) => sentence(term)).join(" ") || "What I am working on this week.";
}

/** The briefs a `fresh` Worker rotates through: its topic, each product, the account's interests and description. */
function freshBriefs(worker: WorkerRow, facts: WritingFacts): { brief: string; productId?: number }[] {
  const briefs: { brief: string; productId?: number }[] = [];
  if (worker.topic_source === "custom" && worker.topic_config.topic) briefs.push({ brief: worker.topic_config.topic });
  const products = worker.topic_source === "product" ? facts.products.filter((row) => row.id === worker.topic_config.product_id) : facts.products;
  for (const product of products) briefs.push({ brief: productBrief(product), productId: product.id });
  if (facts.settings.interests.length > 0) briefs.push({ brief: facts.settings.interests.map(sentence).join(" ") });
  const description = facts.settings.profile_description;
  if (description.enabled && description.text) briefs.push({ brief: description.text });
  if (briefs.length === 0) briefs.push({ brief: topicBrief(worker, facts) });
  return briefs;
}

function productBrief(product: ProductRow): string {
  return [product.name, product.description, product.positioning, product.features, product.updates]
    .filter(Boolean)
    .map((text) => sentence(text!))
    .join(" ");
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function join(...instructions: (string | undefined)[]): string | undefined {
  return instructions.filter(Boolean).join("; ") || undefined;
}

function productContexts(facts: WritingFacts): ProductContext[] {
  return facts.products.filter((row) => row.name).map((row) => ({ name: row.name!, description: row.description, positioning: row.positioning, url: row.url }));
}

async function writingFacts(deps: WriterDeps, worker: WorkerRow): Promise<WritingFacts> {
  const [settings, products, premium] = await Promise.all([
    contextSettingsOf(deps.sql, worker.account_id),
    activeProducts(deps.sql, worker.account_id),
    accountHasPremium(deps.sql, worker.account_id),
  ]);
  const mine = worker.voice !== "creator" && settings.voice.use_own_posts_as_examples ? await postTexts(deps.network, worker.account_id) : [];
  const theirs = worker.creator_handle && worker.voice !== "mine" ? await creatorPostTexts(deps.network, worker.creator_handle) : [];
  const posts = worker.voice === "hybrid" ? [...mine.slice(0, VOICE_SAMPLE / 2), ...theirs.slice(0, VOICE_SAMPLE / 2)] : [...mine, ...theirs];
  return { settings, products, premium, voice: posts.length > 0 ? voiceProfile(posts) : undefined };
}

/** Recent original posts of `userId`; an account the network does not know has none. */
async function postTexts(network: SocialNetwork, userId: string): Promise<string[]> {
  try {
    const page = await network.timeline(userId, { limit: VOICE_SAMPLE, excludeReplies: true, excludeReposts: true });
    return page.items.map((post) => post.text);
  } catch (error) {
    if (error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError) return [];
    throw error;
  }
}

async function creatorPostTexts(network: SocialNetwork, handle: string): Promise<string[]> {
  try {
    const user = await network.userByUsername(handle);
    return postTexts(network, user.id);
  } catch (error) {
    if (error instanceof NetworkNotFoundError || error instanceof NetworkPrivateError) return [];
    throw error;
  }
}

/**
 * Popular original English posts on the Worker's keywords from the last week, most liked
 * first, at most one per author, never the account's own. A post is
 * usable when something is left to remix once names and links are set aside.
 */
async function popularPosts(deps: WriterDeps, worker: WorkerRow): Promise<(NetworkPost & { username?: string })[]> {
  const keywords = worker.topic_config.keywords ?? [];
  if (keywords.length === 0) return [];
  const query = keywords.map((word) => (/\s/.test(word) ? `"${word.replace(/"/g, "")}"` : word)).join(" OR ");
  const days = Math.min(POPULAR_WINDOW_DAYS, deps.network.info.searchWindowDays);
  const since = new Date(deps.now.getTime() - days * DAY_MS).toISOString();
  const page = await deps.network.search({ query, since, minLikes: POPULAR_MIN_LIKES, lang: "en", originalsOnly: true, limit: SEARCH_PAGE });
  const candidates = page.items
    .filter(
      (post) =>
        post.kind === "post" &&
        !post.isThreadContinuation &&
        post.lang === "en" &&
        post.metrics.likes >= POPULAR_MIN_LIKES &&
        post.authorId !== worker.account_id,
    )
    .filter((post) => sentencesOf(post.text).some((line) => !/@\w|https?:\/\//.test(line) && line.split(/\s+/).length >= 4))
    .sort((a, b) => b.metrics.likes - a.metrics.likes || b.id.localeCompare(a.id));
  const usable: NetworkPost[] = [];
  for (const post of candidates) {
    if (usable.length === worker.batch_size) break;
    if (!usable.some((taken) => taken.authorId === post.authorId)) usable.push(post);
  }
  const users = await deps.network.usersByIds(usable.map((post) => post.authorId));
  const handles = new Map(users.map((user) => [user.id, user.username]));
  return usable.map((post) => ({ ...post, username: handles.get(post.authorId) }));
}
