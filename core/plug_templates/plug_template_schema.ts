/** The plug template record (supplement section 5: GET /v1/plug-templates, items `id`, `text`, `has_media`). */
import { z } from "zod";
import { accountSelection } from "../schema.ts";

/** The most text a template holds (the thread bound of supplement: Scheduling, `parts`). */
export const MAX_PLUG_TEMPLATE_TEXT = 25_000;

/** `GET /v1/plug-templates`: only the account (its workspace's templates). */
export const listPlugTemplatesInput = z.object({ ...accountSelection }).prefault({});

/** A plug template as listed. */
export const plugTemplate = z
  .object({
    id: z.string().meta({ description: "Template id: `auto_plug.template_id` of a scheduled post" }),
    text: z.string(),
    has_media: z.boolean(),
  })
  .meta({ id: "PlugTemplate" });

/** A plug template. */
export type PlugTemplate = z.infer<typeof plugTemplate>;
