/** Products in an account's context (supplement: Context products; spec: numeric `id`). */
import { z } from "zod";
import { accountSelection, integerId } from "../schema.ts";
import { webPageUrl } from "../web_page_url.ts";

/** Active products an account may have (supplement: "max 5"). */
export const MAX_PRODUCTS = 5;

/** A product page address (core/web_page_url.ts: a bare domain means https), kept without its fragment so one page is one product. */
export const productUrl = webPageUrl(2048).transform((href) => href.replace(/#.*$/, ""));

const field = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullable().optional();

/** The editable fields of a product; each a string, or null to clear. */
export const productFields = {
  name: field(200),
  description: field(1000),
  positioning: field(2000),
  features: field(2000),
  updates: field(2000),
};

/** One product as sent in a full replace. */
export const productInput = z.object({ url: productUrl, ...productFields }).strict();

/** A full product list as sent: at most 5 products. */
export const productListInput = z.array(productInput).max(MAX_PRODUCTS, `must have at most ${MAX_PRODUCTS} products`);

/** `PUT /v1/context/products`: the list that replaces the account's products by url. */
export const replaceProductsInput = z.object({ ...accountSelection, products: productListInput });

/** `PATCH /v1/context/products/{id}`: a numeric id or a URL-encoded url, and the fields that change. */
export const patchProductInput = z.object({ id: z.string().min(1).max(2100), ...productFields, ...accountSelection });

/** `POST /v1/context/products/{id}/scrape` and `DELETE /v1/context/products/{id}`. */
export const productByIdInput = z.object({ id: integerId, ...accountSelection });

/** A product as returned. */
export const product = z
  .object({
    id: z.number().int(),
    url: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    positioning: z.string().nullable(),
    features: z.string().nullable(),
    updates: z.string().nullable(),
    scraped_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Product" });

/** The product type. */
export type Product = z.infer<typeof product>;

/** The editable fields as parsed. */
export type ProductFields = { [K in keyof typeof productFields]?: string | null };
