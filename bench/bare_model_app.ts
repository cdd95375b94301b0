/**
 * The AI baseline: a bare h3 route that only calls the model for `POST /v1/tools/rephrase`'s
 * input, with no auth, buckets, account resolution, tRPC, zod or credit step, and answers
 * the same `{ data: { text }, meta }` body, so the difference to the full route is the
 * request path plus the credit step.
 */
import { H3 } from "h3";
import type { Model } from "../core/model/model.ts";

/** The bare route's path. */
export const BARE_REPHRASE_PATH = "/bare/rephrase";

/** An app answering `POST /bare/rephrase` (`{ "text": ... }`) with the `concise` rewrite. */
export function createBareModelApp(model: Model): H3 {
  const app = new H3();
  app.post(BARE_REPHRASE_PATH, async (event) => {
    const { text } = (await event.req.json()) as { text: string };
    const result = await model.generate({ task: "concise", input: { text } });
    return { data: { text: result.text }, meta: { credits_charged: result.costCredits } };
  });
  return app;
}
