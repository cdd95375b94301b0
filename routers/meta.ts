/**
 * Meta: the API description over tRPC. REST serves the same documents at
 * `GET /v1/docs` with content negotiation (adapters/http), the only public route.
 */
import { publicProcedure, router } from "../core/trpc.ts";
import { docsInput } from "../core/docs/docs_input_schema.ts";

export const metaRouter = router({
  docs: publicProcedure.input(docsInput).query(({ ctx, input }) => {
    const docs = ctx.services.docs();
    if (input?.format === "markdown") return { markdown: docs.markdown };
    return input?.format === "html" ? { html: docs.html } : { openapi: docs.openapi };
  }),
});
