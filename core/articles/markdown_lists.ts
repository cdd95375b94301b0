/**
 * Lists of an article body (supplement: Articles, "bullet and numbered lists (one nesting
 * level)"): a list keeps two levels, a top level and one nested under it; deeper items move
 * up to the second level, and task-list boxes become text, each with a warning. Bullets
 * are written `-`, numbers `N.`; an item's continuation lines stay with it.
 */
import { type InlineScope, normalizeInline } from "./markdown_inline.ts";
import type { Construct, SourceLine } from "./markdown_warnings.ts";

/** A list item: indentation, marker, text. */
export const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;

const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TASK_BOX = /^\[([ xX])\][ \t]+/;

/** The deepest level an X article list has. */
export const MAX_LIST_DEPTH = 2;

/** What list normalisation needs from the block normaliser. */
export interface ListScope {
  inline: InlineScope;
  warn(construct: Construct, line: number): void;
  /** Whether a line starts another block (ends a lazy continuation). */
  startsBlock(text: string): boolean;
}

interface Item {
  depth: number;
  marker: string;
  lines: string[];
  no: number;
}

/** Reads the list starting at line `start`; answers its Markdown and the line after it. */
export function normalizeList(lines: readonly SourceLine[], start: number, scope: ListScope): { markdown: string; next: number } {
  const items: Item[] = [];
  // Open levels: where each level's marker sits and where its text starts.
  const levels: { indent: number; content: number }[] = [];
  let i = start;
  let afterBlank = false;
  while (i < lines.length) {
    const { text, no } = lines[i];
    if (text.trim() === "") {
      const next = nextNonBlank(lines, i);
      if (next === -1) break;
      const following = lines[next].text;
      const current = items.at(-1);
      const continues = isItem(following) || (current !== undefined && indentOf(following) >= levels.at(-1)!.content);
      if (!continues) break;
      afterBlank = true;
      i = next;
      continue;
    }
    const match = isItem(text) ? LIST_ITEM.exec(text) : null;
    if (match) {
      const indent = match[1].length;
      const content = indent + match[2].length + 1;
      let depth = levelOf(levels, indent, content);
      if (depth > MAX_LIST_DEPTH) {
        scope.warn("deep_list", no);
        depth = MAX_LIST_DEPTH;
      }
      let body = (match[3] ?? "").trim();
      const box = TASK_BOX.exec(body);
      if (box) {
        scope.warn("task_item", no);
        body = `\\[${box[1] === " " ? " " : "x"}\\] ${body.slice(box[0].length)}`;
      }
      const number = /^\d/.test(match[2]) ? `${Number.parseInt(match[2], 10)}.` : "-";
      items.push({ depth, marker: number, lines: [body], no });
      afterBlank = false;
      i++;
      continue;
    }
    // A continuation: indented under the item, or a lazy line right after its text.
    const indented = indentOf(text) >= levels.at(-1)!.content;
    if (!indented && (afterBlank || scope.startsBlock(text))) break;
    items.at(-1)!.lines.push(text.trim());
    afterBlank = false;
    i++;
  }
  return { markdown: render(items, scope), next: i };
}

/** The 1-based level of an item at `indent`, updating the open levels. */
function levelOf(levels: { indent: number; content: number }[], indent: number, content: number): number {
  while (levels.length > 0 && indent < levels.at(-1)!.content) {
    if (indent >= levels.at(-1)!.indent) {
      levels[levels.length - 1] = { indent, content };
      return levels.length;
    }
    levels.pop();
  }
  levels.push({ indent, content });
  return levels.length;
}

function render(items: readonly Item[], scope: ListScope): string {
  const out: string[] = [];
  // Nested items sit under the text of the last top-level item.
  let nestedIndent = 2;
  for (const item of items) {
    const text = normalizeInline(item.lines.filter((line) => line !== "").join("\n"), item.no, scope.inline);
    const prefix = item.depth === 1 ? "" : " ".repeat(nestedIndent);
    if (item.depth === 1) nestedIndent = item.marker.length + 1;
    const [first, ...rest] = text.split("\n");
    out.push(`${prefix}${item.marker} ${first}`.trimEnd());
    const hang = " ".repeat(prefix.length + item.marker.length + 1);
    for (const line of rest) out.push(`${hang}${line.trim()}`);
  }
  return out.join("\n");
}

function isItem(text: string): boolean {
  return LIST_ITEM.test(text) && !THEMATIC_BREAK.test(text);
}

function indentOf(text: string): number {
  return /^ */.exec(text)![0].length;
}

function nextNonBlank(lines: readonly SourceLine[], from: number): number {
  for (let i = from; i < lines.length; i++) if (lines[i].text.trim() !== "") return i;
  return -1;
}
