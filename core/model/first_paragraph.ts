/**
 * The `hook` rule of the spec (Tools): "rewrites the first paragraph only and returns it
 * ahead of the unchanged rest". Both engines split here and splice the new first
 * paragraph back in code, so the rest stays byte-identical whatever the model returns.
 */

/** A post cut after its first paragraph: `first + rest === text`. */
export interface FirstParagraphSplit {
  /** Leading whitespace, kept as it was. */
  lead: string;
  /** The first paragraph, without the blank line that ends it. */
  first: string;
  /** Everything after the first paragraph, starting with its separator (may be empty). */
  rest: string;
}

/** Splits `text` at the first blank line. */
export function splitFirstParagraph(text: string): FirstParagraphSplit {
  const lead = text.match(/^\s*/)?.[0] ?? "";
  const body = text.slice(lead.length);
  const separator = /\n[ \t]*\n/.exec(body);
  if (!separator) {
    const trailing = body.match(/\s*$/)?.[0] ?? "";
    return { lead, first: body.slice(0, body.length - trailing.length), rest: trailing };
  }
  const first = body.slice(0, separator.index).trimEnd();
  return { lead, first, rest: body.slice(first.length) };
}

/** Puts a rewritten first paragraph ahead of the unchanged rest. */
export function withFirstParagraph(split: FirstParagraphSplit, rewritten: string): string {
  return `${split.lead}${rewritten.trim()}${split.rest}`;
}
