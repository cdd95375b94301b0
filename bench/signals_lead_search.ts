/**
 * One lead search for the signals section of the bench: `POST /v1/signals/leads/search`
 * through the full REST path (core/signals/lead_search.ts: planned queries over the
 * network's recent posts, up to 60 people judged) on the simulated network, timed by the
 * client, with the queries it used and what it found.
 */
import { performance } from "node:perf_hooks";

const BODY = {
  keywords: "churn, pricing, customer discovery",
  icp_description: "B2B SaaS founders struggling with churn",
  precision: "discovery",
  max_leads: 30,
};

/** What one search took and found. */
export interface LeadSearchFigures {
  request: string;
  status: number;
  seconds: number;
  queriesUsed: number;
  partial: boolean;
  leads: number;
  creditsCharged: number;
}

/** Runs and times one search as the bench user (`key`) against `origin`. */
export async function measureLeadSearch(origin: string, key: string): Promise<LeadSearchFigures> {
  const start = performance.now();
  const response = await fetch(`${origin}/v1/signals/leads/search`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(BODY),
  });
  const body = (await response.json()) as { data?: { leads: unknown[]; queries_used: number; partial: boolean }; meta?: { credits_charged: number } };
  const seconds = (performance.now() - start) / 1000;
  return {
    request: `POST /v1/signals/leads/search ${JSON.stringify(BODY)}`,
    status: response.status,
    seconds,
    queriesUsed: body.data?.queries_used ?? 0,
    partial: body.data?.partial ?? false,
    leads: body.data?.leads.length ?? 0,
    creditsCharged: body.meta?.credits_charged ?? 0,
  };
}
