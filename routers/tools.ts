/** Tools: `POST /v1/tools/rephrase`, `/inline-edit`, `/factcheck` (text only; rule 7). */
import { z } from "zod";
import { chargesCredits, inAccount, keyProcedure, router } from "../core/trpc.ts";
import { factcheckToolInput, inlineEditToolInput, rephraseToolInput } from "../core/tools/tools_input_schema.ts";
import { factcheck, inlineEdit, rephrase } from "../core/tools/tools.ts";
import type { ErrorCode } from "../core/errors.ts";

const modelErrors: ErrorCode[] = ["upstream_error", "upstream_unavailable", "upstream_timeout"];
const meta = z.object({ credits_charged: z.number().int(), account_id: z.string() });
const textResult = z.object({ data: z.object({ text: z.string() }), meta });

export const toolsRouter = router({
  rephrase: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/tools/rephrase",
        tags: ["Tools"],
        summary: "Rewrite a whole post by type",
        description:
          "The first eight types are style presets in the account's own voice; `grammar`, `translate`, `clarity`, `details`, `concise` leave the voice alone. `hook` rewrites the first paragraph only and returns it ahead of the unchanged rest. Text only: nothing is written. Typically 1 credit.",
      },
      credits: { metered: 1 },
      errors: modelErrors,
    })
    .input(rephraseToolInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(textResult)
    .mutation(({ ctx, input }) => rephrase(ctx, input)),

  inlineEdit: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/tools/inline-edit",
        tags: ["Tools"],
        summary: "Edit a selection by instruction, type or both",
        description:
          "Rewrites `text` (the selection; `full_text` is the post around it) by `instruction`, `edit_type` or both (neither: `400 invalid_parameter`), in the account's voice and rules. Answers text only; metered credits.",
      },
      credits: { metered: 1 },
      errors: modelErrors,
    })
    .input(inlineEditToolInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(textResult)
    .mutation(({ ctx, input }) => inlineEdit(ctx, input)),

  factcheck: keyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/v1/tools/factcheck",
        tags: ["Tools"],
        summary: "Check a claim: true, false or unknown, with a comment and sources",
        description: "Answers `result` (`true`, `false` or `unknown`), a one-sentence `comment` and `sources`. Text only; metered credits.",
      },
      credits: { metered: 1 },
      errors: modelErrors,
    })
    .input(factcheckToolInput)
    .use(inAccount)
    .use(chargesCredits)
    .output(
      z.object({
        data: z.object({ result: z.enum(["true", "false", "unknown"]), comment: z.string(), sources: z.array(z.string()) }),
        meta,
      }),
    )
    .mutation(({ ctx, input }) => factcheck(ctx, input)),
});
