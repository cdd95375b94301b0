/**
 * The bodies of the content composer (`POST /v1/posts/remix`, `POST /v1/posts/draft`): text
 * only, nothing is written (rule 7).
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";

const handle = (label: string, max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^@?[A-Za-z0-9_]{1,15}$/, `must be an X handle (${label}): 1 to 15 letters, digits or underscores, @ optional`)
    .transform((value) => value.replace(/^@/, ""));

/** `POST /v1/posts/remix`: the post, how close to stay to it (0 to 100) and whose post it is. */
export const remixPostInput = z.object({
  text: z.string().min(1, "must not be empty").max(4_000, "must be at most 4000 characters"),
  closeness: z.number({ error: "must be an integer from 0 to 100" }).int().min(0).max(100),
  instructions: z.string().max(500).optional(),
  author_handle: handle("author_handle", 64).optional(),
  ...accountSelection,
});

/** What a remix sends, parsed (the handle without `@`). */
export type RemixPostInput = z.infer<typeof remixPostInput>;

/** `POST /v1/posts/draft`: the brief, 1 to 3 drafts, whose voice, and an optional mirror or collection. */
export const draftPostsInput = z.object({
  brief: z.string().min(1, "must not be empty").max(2_000, "must be at most 2000 characters"),
  count: z.number().int().min(1, "must be 1 to 3").max(3, "must be 1 to 3").default(1),
  voice: z.enum(["mine", "creator", "hybrid"]).default("mine"),
  creator: handle("creator", 16).optional(),
  mirror: z.string().min(50, "must be 50 to 1500 characters").max(1_500, "must be 50 to 1500 characters").optional(),
  collection: z.string().max(64).optional().meta({ description: "A format collection id; used only without `mirror`" }),
  instructions: z.string().max(500).optional(),
  ...accountSelection,
});

/** What a draft request sends, parsed (defaults applied). */
export type DraftPostsInput = z.infer<typeof draftPostsInput>;
