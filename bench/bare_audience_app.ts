/**
 * The baseline of the audience bench: bare h3 routes answering the same `{ data,
 * pagination }` bodies as `GET /v1/contact-lists/{id}/members` and `GET /v1/contacts` from
 * the same query functions (`memberPage`, `contactsPage`) and row mappers, for one list and
 * one account, with no auth, limits, tRPC or zod, so the difference to the full path is
 * the request path itself.
 */
import { H3 } from "h3";
import type { Sql } from "../core/db/sql.ts";
import { pageInfo } from "../core/schema.ts";
import { memberPage } from "../core/contact_lists/list_members_queries.ts";
import { toMember } from "../core/contact_lists/list_members.ts";
import { contactsPage } from "../core/audience/contacts_queries.ts";
import { toContact } from "../core/audience/contacts.ts";

/** The bare member route (`?q=`, `?limit=`, `?page=` as on the real one). */
export const BARE_MEMBERS_PATH = "/bare/members";

/** The bare contacts route (`?limit=`, `?page=`; sorted by engagement). */
export const BARE_CONTACTS_PATH = "/bare/contacts";

/** An app answering both routes for list `list` of account `accountId`. */
export function createBareAudienceApp(sql: Sql, accountId: string, list: { id: number; memberCount: number }): H3 {
  const app = new H3();
  app.get(BARE_MEMBERS_PATH, async (event) => {
    const { q, limit, page } = pageQuery(event.req.url);
    const rows = await memberPage(sql, list.id, accountId, q, limit + 1, (page - 1) * limit);
    const total = q === undefined ? list.memberCount : rows[0]?.total;
    return { data: rows.slice(0, limit).map(toMember), pagination: pageInfo(page, limit, total, rows.length) };
  });
  app.get(BARE_CONTACTS_PATH, async (event) => {
    const { limit, page } = pageQuery(event.req.url);
    const rows = await contactsPage(sql, accountId, "engagement", limit + 1, (page - 1) * limit);
    return { data: rows.slice(0, limit).map(toContact), pagination: pageInfo(page, limit, undefined, rows.length) };
  });
  return app;
}

function pageQuery(url: string) {
  const query = new URL(url).searchParams;
  return { q: query.get("q") || undefined, limit: Number(query.get("limit") ?? 50), page: Number(query.get("page") ?? 1) };
}
