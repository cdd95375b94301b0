/**
 * Meta: the API description over tRPC. REST serves the same documents at
 * `GET /v1/docs` with content negotiation (adapters/http), the only public route.
 */
import { z } from "zod";
import { publicProcedure, router } from "../core/trpc.ts";

export const metaRouter = router({
  docs: publicProcedure.input(z.object({ format: z.enum(["openapi", "markdown", "html"]).default("openapi") }).optional()).query(({ ctx, input }) => {
    const docs = ctx.services.docs();
    if (input?.format === "markdown") return { markdown: docs.markdown };
    return input?.format === "html" ? { html: docs.html } : { openapi: docs.openapi };
  }),
});
