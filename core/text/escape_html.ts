/** Text placed in HTML (the docs page, the connect callback's page): the five characters that could open markup, as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
