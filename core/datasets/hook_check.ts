/**
 * The verbatim check on research hooks (docs/areas.md "Datasets": hooks are verbatim quotes
 * of the person's own recent posts, checked against the source text; a quote that is not
 * verbatim is dropped). A hook counts only when its quote appears, word for word, in
 * the post it names. The one tolerance: runs of whitespace match any run of whitespace
 * (a model often writes a post's line break as a space), and the stored quote is then the
 * post's own text for that span, so what is stored is always a substring of the post.
 * Nothing else is forgiven: no case folding, no punctuation or quote-mark changes, no
 * ellipses. A hook naming a post that is not among the person's posts read is dropped.
 */
import { postUrl } from "../network/post_url.ts";

/** Hooks kept per profile at most. */
export const MAX_HOOKS = 3;

/** A hook as a model proposed it. */
export interface ProposedHook {
  post_id: string;
  quote: string;
}

/** A post a hook may quote. */
export interface QuotablePost {
  id: string;
  text: string;
  createdAt: string;
}

/** A hook that passed the check, as a row stores it. */
export interface VerifiedHook {
  quote: string;
  post_id: string;
  post_url: string;
  posted_at: string | null;
}

/** The hooks among `proposed` that quote their post verbatim (first `MAX_HOOKS`, repeats dropped), and how many were dropped. */
export function verbatimHooks(proposed: readonly ProposedHook[], posts: readonly QuotablePost[], handle: string): { hooks: VerifiedHook[]; dropped: number } {
  const byId = new Map(posts.map((post) => [post.id, post]));
  const hooks: VerifiedHook[] = [];
  let dropped = 0;
  for (const hook of proposed) {
    const post = byId.get(hook.post_id);
    const quote = post ? quoteIn(post.text, hook.quote) : undefined;
    if (!post || !quote) {
      dropped += 1;
      continue;
    }
    if (hooks.length >= MAX_HOOKS || hooks.some((kept) => kept.quote === quote)) continue;
    hooks.push({ quote, post_id: post.id, post_url: postUrl(handle, post.id), posted_at: post.createdAt });
  }
  return { hooks, dropped };
}

/** The span of `text` that `quote` names word for word (whitespace runs aside), or undefined. */
export function quoteIn(text: string, quote: string): string | undefined {
  const words = quote.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.map(escapeRegExp).join("\\s+"), "u");
  return pattern.exec(text)?.[0];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
