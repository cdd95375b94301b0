/**
 * The personal tokens of a DM template (supplement: DMs, "`[name]`, `[first]`, `[handle]`
 * filled per recipient"), filled at send time from what the campaign row knows of the
 * person (or what the network says of them when the row named nobody).
 */

/** What a template is filled from. */
export interface DmPerson {
  name: string | null;
  handle: string | null;
}

const TOKENS = /\[(name|first|handle)\]/gi;

/** Whether `template` holds a token that needs the person's name or handle. */
export function hasTokens(template: string): boolean {
  return new RegExp(TOKENS.source, "i").test(template);
}

/**
 * Fills `[name]` (the display name), `[first]` (its first word) and `[handle]` (`@handle`),
 * case-insensitively. A value the row lacks falls back to the other one, then to "there", so
 * a message never goes out with a bracketed token in it.
 */
export function fillTokens(template: string, person: DmPerson): string {
  const name = person.name?.trim() || null;
  const handle = person.handle?.replace(/^@/, "").trim() || null;
  const at = handle ? `@${handle}` : null;
  return template.replace(TOKENS, (_match, token: string) => {
    const kind = token.toLowerCase();
    if (kind === "handle") return at ?? name ?? "there";
    if (kind === "first") return name?.split(/\s+/)[0] ?? at ?? "there";
    return name ?? at ?? "there";
  });
}
