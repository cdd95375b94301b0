/** Content composer: `POST /v1/posts/remix`, `POST /v1/posts/draft` (text only; rule 7). */
import { z } from "zod";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { accountSelection } from "../core/schema.ts";
import { draftPosts, remixPost } from "../core/composer/compose.ts";
import type { ErrorCode } from "../core/errors.ts";

const meta = z.object({ credits_charged: z.number().int(), account_id: z.string() });
const handle = (label: string, max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^@?[A-Za-z0-9_]{1,15}$/, `must be an X handle (${label}): 1 to 15 letters, digits or underscores, @ optional`)
    .transform((value) => value.replace(/^@/, ""));
const modelErrors: ErrorCode[] = ["upstream_error", "upstream_unavailable", "upstream_timeout"];

export const postsComposeRouter = router({
  remix: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/posts/remix",
        tags: ["Content"],
        summary: "Remix a post into a new one",
        description:
          "`closeness` 0 keeps only the idea, 100 stays close to the wording. When `author_handle` is the account's own handle the remix keeps subject, products, names and numbers. Text only; metered, typically 2 credits.",
      },
      credits: { metered: 1 },
      errors: [...modelErrors, "user_not_found"],
    })
    .input(
      z.object({
        text: z.string().min(1, "must not be empty").max(4_000, "must be at most 4000 characters"),
        closeness: z.number({ error: "must be an integer from 0 to 100" }).int().min(0).max(100),
        instructions: z.string().max(500).optional(),
        author_handle: handle("author_handle", 64).optional(),
        ...accountSelection,
      }),
    )
    .use(inAccount)
    .use(chargesCredits)
    .output(z.object({ data: z.object({ text: z.string(), own_post: z.boolean() }), meta }))
    .mutation(({ ctx, input }) => remixPost(ctx, input)),

  draft: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/posts/draft",
        tags: ["Content"],
        summary: "Draft posts from a brief",
        description:
          "1 to 3 drafts in the account's voice (`mine`), a creator's, or both (`hybrid`). A `mirror` gives its shape; a list-style or engagement-bait mirror is refused `400 mirror_rejected` before any charge. 3 credits per draft written; nothing is saved. The local engine writes one distinct draft per brief.",
      },
      credits: { metered: 3 },
      errors: [...modelErrors, "mirror_rejected", "generation_failed", "user_not_found"],
    })
    .input(
      z.object({
        brief: z.string().min(1, "must not be empty").max(2_000, "must be at most 2000 characters"),
        count: z.number().int().min(1, "must be 1 to 3").max(3, "must be 1 to 3").default(1),
        voice: z.enum(["mine", "creator", "hybrid"]).default("mine"),
        creator: handle("creator", 16).optional(),
        mirror: z.string().min(50, "must be 50 to 1500 characters").max(1_500, "must be 50 to 1500 characters").optional(),
        collection: z.string().max(64).optional().meta({ description: "A format collection id; used only without `mirror`" }),
        instructions: z.string().max(500).optional(),
        ...accountSelection,
      }),
    )
    .use(inAccount)
    .use(chargesCredits)
    .output(
      z.object({
        data: z.object({ drafts: z.array(z.object({ text: z.string() })), requested: z.number().int(), written: z.number().int() }),
        meta,
      }),
    )
    .mutation(({ ctx, input }) => draftPosts(ctx, input)),
});
