/**
 * Context: `GET/PATCH/PUT /v1/context` and the product sub-resources. Writes are exempt
 * from `writes_main_account_only` and refuse editor shares (spec rule 6, Authentication 8).
 */
import { z } from "zod";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { contextAccountInput, contextWriteInput } from "../core/account_context/context_schema.ts";
import { contextView } from "../core/account_context/context_view_schema.ts";
import { patchProductInput, product, productByIdInput, replaceProductsInput } from "../core/account_context/product_schema.ts";
import { patchContext, readContext, replaceContext } from "../core/account_context/account_context.ts";
import { deleteProduct, patchProduct, replaceProducts } from "../core/account_context/products.ts";
import { regenerateStyleGuide } from "../core/account_context/style_guide.ts";
import { scrapeProduct } from "../core/account_context/scrape_product.ts";

const settingsWrite = { sharedWrites: true, editorRestricted: true } as const;

export const contextRouter = router({
  get: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/context",
        tags: ["Context"],
        summary: "Read the account's context: settings, style guide and products",
        description: "What the AI tools write with: the account's voice and rules, its style guide and its products. Shared accounts may read it.",
      },
    })
    .input(contextAccountInput)
    .use(inAccount)
    .output(dataOf(contextView))
    .query(({ ctx }) => readContext(ctx)),

  patch: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/context",
        tags: ["Context"],
        summary: "Change only the context fields sent",
        description:
          "Groups merge field by field; arrays and texts replace; `null` clears. A `products` array adds or restores products by url without removing others.",
      },
      ...settingsWrite,
    })
    .input(contextWriteInput)
    .use(inAccount)
    .output(dataOf(contextView))
    .mutation(({ ctx, input }) => patchContext(ctx, input)),

  put: keyProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/v1/context",
        tags: ["Context"],
        summary: "Replace the context settings",
        description: "Fields absent return to their defaults. Products are untouched unless `products` is sent, which replaces the list by url.",
      },
      ...settingsWrite,
    })
    .input(contextWriteInput)
    .use(inAccount)
    .output(dataOf(contextView))
    .mutation(({ ctx, input }) => replaceContext(ctx, input)),

  replaceProducts: keyProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/v1/context/products",
        tags: ["Context"],
        summary: "Replace the product list by url (max 5; [] removes all)",
        description: "Products missing from the array are removed; re-adding a removed url restores it with its earlier details.",
      },
      ...settingsWrite,
    })
    .input(replaceProductsInput)
    .use(inAccount)
    .output(dataOf(z.array(product)))
    .mutation(({ ctx, input }) => replaceProducts(ctx, input.products)),

  patchProduct: keyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/v1/context/products/{id}",
        tags: ["Context"],
        summary: "Change a product by id, or add one by url",
        description: "`id` is a numeric product id or a URL-encoded product url; a new url creates the product (max 5).",
      },
      errors: ["not_found"],
      ...settingsWrite,
    })
    .input(patchProductInput)
    .use(inAccount)
    .output(dataOf(product))
    .mutation(({ ctx, input: { id, account_id: _, ...fields } }) => patchProduct(ctx, id, fields)),

  scrapeProduct: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/context/products/{id}/scrape",
        tags: ["Context"],
        summary: "Read the product's page again and store its details",
        description:
          "Free. 20 page reads per account per UTC day (`429 rate_limited` with `bucket: page_reads` beyond). The page title fills a missing name; its description and highlights replace the scraped fields. A page that cannot be read: `422 scrape_failed`; a URL that is not https, carries credentials or reaches a private, loopback or reserved address, on any redirect too: `400 url_not_allowed` (the operator's `OUTBOUND_ALLOW_HOSTS` are exempt and may use http).",
      },
      errors: ["not_found", "scrape_failed", "url_not_allowed"],
      ...settingsWrite,
    })
    .input(productByIdInput)
    .use(inAccount)
    .output(dataOf(product))
    .mutation(({ ctx, input }) => scrapeProduct(ctx, input.id)),

  regenerateStyleGuide: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/context/style-guide/regenerate",
        tags: ["Context"],
        summary: "Regenerate the style guide from the account's posts",
        description:
          "Free AI call (no `X-Credits-Charged`). Reads the account's posts of the last 90 days, or live when fewer than 5 (at most 3 live attempts per account per day, up to 4 requests each, counted against the platform ceiling). Once per hour per account. Fewer than 5 posts even live: `400 not_enough_posts`.",
      },
      credits: "free",
      errors: ["not_enough_posts", "ai_action_limited", "upstream_unavailable", "upstream_error", "upstream_timeout"],
      ...settingsWrite,
    })
    .input(contextAccountInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(
      dataOf(
        z.object({
          generated: z.string(),
          generated_at: z.string(),
          posts_used: z.number().int(),
          source: z.enum(["stored", "live"]).meta({ description: "`live` when the stored posts were too few" }),
        }),
      ),
    )
    .mutation(({ ctx }) => regenerateStyleGuide(ctx)),

  deleteProduct: keyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/v1/context/products/{id}",
        tags: ["Context"],
        summary: "Remove a product (re-adding its url restores it)",
        description:
          "Answers `{ data: { id, deleted: true } }`. Reversible: re-adding the same url through `PATCH` or `PUT /v1/context` restores it. An account shared with `editor` permission answers `403 editor_restricted`.",
      },
      errors: ["not_found"],
      ...settingsWrite,
    })
    .input(productByIdInput)
    .use(inAccount)
    .output(dataOf(z.object({ id: z.number().int(), deleted: z.literal(true) })))
    .mutation(({ ctx, input }) => deleteProduct(ctx, input.id)),
});
