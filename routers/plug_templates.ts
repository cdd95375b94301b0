/** Plug templates: `GET /v1/plug-templates` (supplement section 5). */
import { z } from "zod";
import { inAccount, keyProcedure, router } from "../core/trpc.ts";
import { dataOf } from "../core/schema.ts";
import { listPlugTemplatesInput, plugTemplate } from "../core/plug_templates/plug_template_schema.ts";
import { listPlugTemplates } from "../core/plug_templates/plug_templates.ts";

export const plugTemplatesRouter = router({
  list: keyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/v1/plug-templates",
        tags: ["Scheduling"],
        summary: "List the workspace's plug templates",
        description:
          "Templates for `auto_plug` on scheduled posts, shared by the main account and its linked accounts, oldest first. They are created in the companion app (on a self-hosted server: `threadline plug-templates create`).",
      },
    })
    .input(listPlugTemplatesInput)
    .use(inAccount)
    .output(dataOf(z.array(plugTemplate)))
    .query(({ ctx }) => listPlugTemplates(ctx)),
});
