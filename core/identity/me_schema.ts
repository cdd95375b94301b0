/** The `GET /v1/me` record (supplement: Identity). */
import { z } from "zod";

const window = z.object({ minute: z.number().int(), day: z.number().int() });

/** `GET /v1/me`: nothing to send (the key describes itself). */
export const meInput = z.object({}).prefault({});

/** What `GET /v1/me` answers in `data`. */
export const me = z
  .object({
    owner: z.object({ id: z.string(), name: z.string(), main_account_id: z.string() }),
    plan: z.object({
      id: z.string(),
      label: z.string(),
      request_limits: z
        .object({ reads: window, writes: window, enrichment: window, feed: window })
        .meta({ description: "Request buckets per clock minute and per UTC day, per account owner across all keys" }),
    }),
    subscription: z.object({ status: z.string() }),
    onboarded: z.boolean(),
    credits: z
      .object({
        remaining: z.number().int(),
        pool: z.number().int().meta({ description: "Credits the plan grants per period (one credit = one cent of model spend)" }),
        bonus: z.number().int().meta({ description: "Extra credits that outlive the period" }),
        used: z.number().int(),
        period: z.enum(["monthly", "daily"]).meta({ description: "Monthly from the billing date on paid plans, daily on trials" }),
        period_start: z.string(),
        period_end: z.string().meta({ description: "When the pool renews" }),
      })
      .nullable()
      .meta({ description: "The AI credit pool; null when it cannot be read right now" }),
    post_quota: z
      .object({
        limit: z.number().int(),
        used: z.number().int(),
        remaining: z.number().int(),
        period_start: z.string(),
        period_end: z.string().meta({ description: "When the quota renews (monthly from the billing date)" }),
      })
      .meta({ description: "Posts and articles scheduled or published this billing period (403 post_quota_exceeded when none remain)" }),
    key: z.object({
      id: z.number().int(),
      name: z.string(),
      display: z.string().meta({ description: "Shortened key for recognition; the full key is shown only at creation" }),
      scopes: z.array(z.enum(["read", "write"])),
      created_at: z.string(),
      last_used_at: z.string().nullable(),
    }),
  })
  .meta({ id: "Me" });
