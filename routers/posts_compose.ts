/** Content composer: `POST /v1/posts/remix`, `POST /v1/posts/draft` (text only; rule 7). */
import { z } from "zod";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { draftPostsInput, remixPostInput } from "../core/composer/compose_schema.ts";
import { draftPosts, remixPost } from "../core/composer/compose.ts";
import type { ErrorCode } from "../core/errors.ts";

const meta = z.object({ credits_charged: z.number().int(), account_id: z.string() });
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
    .input(remixPostInput)
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
    .input(draftPostsInput)
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
