/** The `GET /v1/context` record (supplement: the client reads `products`, `rules`, `style_guide.generated`). */
import { z } from "zod";
import { product } from "./product_schema.ts";

/** What `data` holds for the context endpoints. */
export const contextView = z
  .object({
    account_id: z.string(),
    profile_description: z.object({ text: z.string().nullable(), enabled: z.boolean() }),
    interests: z.array(z.string()),
    rules: z.string().nullable(),
    reply: z.object({ custom_instructions: z.string().nullable(), include_author_name: z.boolean() }),
    voice: z.object({ favorite_creators: z.array(z.string()), use_own_posts_as_examples: z.boolean() }),
    style_guide: z.object({
      generated: z.string().nullable().meta({ description: "Read-only; written by POST /v1/context/style-guide/regenerate" }),
      generated_at: z.string().nullable(),
      audience_override: z.string().nullable(),
      vocabulary_override: z.string().nullable(),
    }),
    products: z.array(product),
  })
  .meta({ id: "Context" });
