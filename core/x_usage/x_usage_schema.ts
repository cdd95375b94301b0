/** Shapes of the X usage report (docs/x.md "X's prices and your budget"): `GET /v1/x/usage`. */
import { z } from "zod";
import { X_PRICE_KINDS } from "./x_prices.ts";

/** The query: a UTC month, the current one by default. */
export const xUsageInput = z
  .object({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "must be a month as YYYY-MM" })
      .optional()
      .meta({ description: "The UTC month, `2026-11`; default the current one" }),
  })
  .prefault({});

const usd = (description: string) => z.number().meta({ description });

/** One kind of call of one account. */
const kindUsage = z.object({
  kind: z.enum(X_PRICE_KINDS as [string, ...string[]]).meta({ description: "What X prices the call as (x-api/getting-started/pricing.mdx)" }),
  calls: z.number().int(),
  units: z.number().int().meta({ description: "Requests for writes; resources returned for reads" }),
  spend_usd: usd("Estimated spend at the configured prices"),
});

/** An account's usage in the month. */
const accountUsage = z.object({
  account_id: z.string(),
  calls: z.number().int(),
  spend_usd: usd("Estimated spend of the account"),
  kinds: z.array(kindUsage),
});

/** The report. */
export const xUsageReport = z.object({
  month: z.string(),
  accounts: z.array(accountUsage).meta({ description: "The key's user's own accounts that called X in the month" }),
  spend_usd: usd("Estimated spend of every account of the user"),
  budget_usd: z.number().nullable().meta({ description: "The user's monthly X budget (their own, else `X_MONTHLY_BUDGET_USD`); null: none" }),
  left_usd: z.number().nullable().meta({ description: "What is left of the budget, never below 0; null without a budget" }),
});

/** The query as parsed. */
export type XUsageInput = z.infer<typeof xUsageInput>;
