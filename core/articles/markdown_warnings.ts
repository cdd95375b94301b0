/** The conversion problems an article body reports in `warnings` (spec: Article, `content_markdown`). */
import type { InlineConstruct } from "./markdown_inline.ts";

/** A source line and its 1-based number. */
export interface SourceLine {
  text: string;
  no: number;
}

/** A construct that X articles cannot hold, degraded to text. */
export type Construct =
  | InlineConstruct
  | "code_block"
  | "thematic_break"
  | "heading_level"
  | "html_block"
  | "table"
  | "footnote"
  | "task_item"
  | "deep_list"
  | "nested_quote";

const TEXTS: Record<Construct, string> = {
  code_block: "Code block on line {line} became plain text (X articles have no code blocks)",
  inline_code: "Inline code on line {line} became plain text",
  thematic_break: "Horizontal rule on line {line} was removed (X articles have no dividers)",
  heading_level: "Heading on line {line} became a level 3 heading (X articles have heading levels 1 to 3)",
  html_block: "HTML on line {line} was reduced to its text",
  inline_html: "HTML tag on line {line} was removed",
  table: "Table on line {line} became plain text, one line per row",
  footnote: "Footnote on line {line} became plain text",
  footnote_reference: "Footnote reference on line {line} became plain text",
  task_item: "Task list checkbox on line {line} became plain text",
  deep_list: "List item on line {line} was nested more than 2 levels deep and was moved up to level 2",
  nested_quote: "Quote inside a quote on line {line} was flattened to one level",
  link_title: "Link title on line {line} was dropped",
};

/** The warning text of `construct` found on `line`. */
export function warningText(construct: Construct, line: number): string {
  return TEXTS[construct].replace("{line}", String(line));
}
