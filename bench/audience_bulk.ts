/**
 * The bulk half of the audience section: `POST /v1/contact-lists/{id}/members/bulk` with 500
 * known people into an empty list, then `.../bulk-delete` of those 500 members, through the
 * full REST path, each run on a fresh list and other people (so no run finds the last one's
 * rows warm). The section user is on the enterprise plan: a bulk call is one write of its
 * 100,000 a minute (Limits 3), so the bucket never refuses these few calls.
 */
import { performance } from "node:perf_hooks";
import type { Services } from "../core/context.ts";
import type { SectionUser } from "./seed.ts";

/** The spec's bound on one bulk call (Constants: 1 to 500 ids). */
const BULK_SIZE = 500;

/** Runs `repeats` add + delete pairs; answers [p50, min, max] ms of each and the calls that answered wrongly. */
export async function measureBulk(target: { services: Services; origin: string }, user: SectionUser, repeats: number) {
  const { sql, clock } = target.services;
  const headers = { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${target.origin}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = (await response.json()) as { data?: { added?: number; deleted?: number; total_in_list_after?: number } };
    return { ms: performance.now() - started, ok: response.ok, data: answer.data };
  };
  const [{ known }] = await sql<{ known: number }[]>`select count(*)::int as known from contacts where account_id = ${user.ownerId}`;
  const add: number[] = [];
  const remove: number[] = [];
  let failed = 0;
  for (let run = 0; run < repeats; run++) {
    const now = new Date(clock.now());
    const [list] = await sql<{ id: number }[]>`
      insert into contact_lists (account_id, name, kind, created_at, updated_at)
      values (${user.ownerId}, ${`Bench bulk ${run + 1}`}, 'custom', ${now}, ${now}) returning id`;
    const people = await sql<{ x_user_id: string }[]>`
      select x_user_id from contacts where account_id = ${user.ownerId}
       order by x_user_id limit ${BULK_SIZE} offset ${(run * BULK_SIZE) % Math.max(1, known - BULK_SIZE)}`;
    const added = await post(`/v1/contact-lists/${list.id}/members/bulk`, { x_user_ids: people.map((row) => row.x_user_id) });
    if (!added.ok || added.data?.added !== BULK_SIZE) failed++;
    add.push(added.ms);
    const members = await sql<{ id: string }[]>`select id::text as id from contact_list_members where list_id = ${list.id}`;
    const removed = await post(`/v1/contact-lists/${list.id}/members/bulk-delete`, { member_ids: members.map((row) => row.id) });
    if (!removed.ok || removed.data?.deleted !== BULK_SIZE || removed.data.total_in_list_after !== 0) failed++;
    remove.push(removed.ms);
  }
  return { size: BULK_SIZE, repeats, add: spread(add), remove: spread(remove), failed };
}

/** [median, min, max] of `values`. */
function spread(values: number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.ceil(sorted.length / 2) - 1], sorted[0], sorted[sorted.length - 1]];
}
