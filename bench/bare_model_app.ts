/**
 * The AI baselines: bare h3 routes for `POST /v1/tools/rephrase`'s input, with no auth,
 * buckets, account resolution, tRPC or zod, answering the same `{ data: { text }, meta }`
 * body. `/bare/rephrase` only calls the model; `/bare/rephrase-credited` runs the model inside
 * the same credit step as the full route (the same SQL on the same pool, for a principal
 * resolved once), so the full route's difference to it is the request path alone, as in the
 * path section's bare route.
 */
import { H3 } from "h3";
import type { Model } from "../core/model/model.ts";

/** The model-only route's path. */
export const BARE_REPHRASE_PATH = "/bare/rephrase";
/** The model-and-credit-step route's path. */
export const BARE_CREDITED_REPHRASE_PATH = "/bare/rephrase-credited";

/** An app answering `POST /bare/rephrase` and `POST /bare/rephrase-credited` (`{ "text": ... }`) with the `concise` rewrite. */
export function createBareModelApp(model: Model, credited: (text: string) => Promise<{ text: string; credits: number }>): H3 {
  const app = new H3();
  app.post(BARE_REPHRASE_PATH, async (event) => {
    const { text } = (await event.req.json()) as { text: string };
    const result = await model.generate({ task: "concise", input: { text } });
    return { data: { text: result.text }, meta: { credits_charged: result.costCredits } };
  });
  app.post(BARE_CREDITED_REPHRASE_PATH, async (event) => {
    const { text } = (await event.req.json()) as { text: string };
    const result = await credited(text);
    return { data: { text: result.text }, meta: { credits_charged: result.credits } };
  });
  return app;
}
