/**
 * The searches a lead search runs (supplement: "Up to 10 planned queries"): every angle
 * alone first (what people post about), then every angle with the ICP's role words (the
 * same topic from people who name their role in the post: `churn founder OR churn
 * founders`), until 10. An angle that already uses search operators (quotes, `OR`,
 * `-excluded`) is run as written and gets no role variant, so its meaning is not changed.
 */
import { rolesIn } from "../model/role_lexicon.ts";

/** Queries per search at most (supplement). */
export const MAX_PLANNED_QUERIES = 10;

/** One planned query and the angle it came from. */
export interface PlannedQuery {
  query: string;
  angle: string;
}

/** The plan for `angles` and the ICP. */
export function planQueries(angles: readonly string[], icp: string): PlannedQuery[] {
  const plan: PlannedQuery[] = angles.map((angle) => ({ query: angle, angle }));
  const roles = roleWordsOf(icp);
  if (roles.length > 0) {
    for (const angle of angles) {
      if (!isPlain(angle)) continue;
      plan.push({ query: roles.map((role) => `${angle} ${role}`).join(" OR "), angle });
    }
  }
  return plan.slice(0, MAX_PLANNED_QUERIES);
}

/**
 * The ICP's first role as people write it in posts, singular and plural where both are
 * the role ("founders" -> founder, founders; "sales" -> sales). One role only: every alternative is another clause X must match.
 */
export function roleWordsOf(icp: string): string[] {
  const [role] = rolesIn(icp);
  const found = role ? icp.match(role.pattern)?.[0].toLowerCase() : undefined;
  if (!found || /\s/.test(found)) return found ? [`"${found}"`] : [];
  const singular = found.endsWith("s") && found.length > 3 ? found.slice(0, -1) : found;
  // Only forms the lexicon itself reads as the role: "founder(s)", "ceo(s)", but not "sale".
  return [...new Set([singular, `${singular}s`])].filter((form) => role.pattern.test(form));
}

/** A query without search operators. */
function isPlain(query: string): boolean {
  return !query.includes('"') && !/(^|\s)OR(\s|$)/.test(query) && !/(^|\s)-\S/.test(query);
}
