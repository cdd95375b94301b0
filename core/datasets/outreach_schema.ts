/**
 * The shapes of `POST /v1/datasets/{id}/outreach-drafts` (spec: Datasets, Outreach drafts
 * result, Constants "Outreach format / instructions 10 to 1000 / up to 500 chars").
 */
import { z } from "zod";
import { accountSelection } from "../schema.ts";
import { datasetId, outreachFormat, outreachInstructions, outreachResult } from "./dataset_schema.ts";

/** The path id and the body (spec: `{ format, instructions?, account_id? }`). */
export const outreachDraftsInput = z.object({
  id: datasetId,
  format: outreachFormat,
  instructions: outreachInstructions
    .optional()
    .meta({ description: "Up to 500 characters: how to write (tone, length, what to mention). The local engine follows only the transforms it has" }),
  ...accountSelection,
});

/** The parsed input. */
export type OutreachDraftsInput = z.infer<typeof outreachDraftsInput>;

/** The answer: `{ data: <Outreach drafts result>, meta: { credits_charged }, note }`. */
export const outreachDraftsOutput = z.object({
  data: outreachResult,
  meta: z.object({
    credits_charged: z.number().int().meta({ description: "Credits kept: the model's measured cost, at least 1 once a message was stored" }),
    account_id: z.string(),
  }),
  note: z.string(),
});

/** The answer. */
export type OutreachDraftsOutput = z.infer<typeof outreachDraftsOutput>;
