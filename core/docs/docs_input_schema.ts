/** The input of the tRPC query `meta.docs`: which form of the API description to answer. */
import { z } from "zod";

/** `meta.docs`: `openapi` (the default), `markdown` or `html`; the whole input may be absent. */
export const docsInput = z.object({ format: z.enum(["openapi", "markdown", "html"]).default("openapi") }).optional();
