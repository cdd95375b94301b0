/**
 * The Markdown subset an X article holds (supplement: Articles, "Markdown both ways": h1-h3,
 * bullet and numbered lists with one nesting level, blockquotes, bold, italic,
 * strikethrough, links, images by URL, an X post URL on its own line as an embed; "Code
 * blocks and `---` degrade to text and are listed in `warnings`"). Every other construct
 * degrades to text with one warning per occurrence (spec: Article, `content_markdown`):
 * code blocks and inline code, horizontal rules, headings 4-6, raw HTML, tables,
 * footnotes, task-list boxes, lists nested deeper than two levels, nested quotes, link
 * titles. Setext headings and reference links are rewritten losslessly. A link or image
 * URL that is not http(s) is refused (`400 invalid_parameter`).
 *
 * The result is stable: normalising it again changes nothing and warns about nothing.
 *
 * @example
 * const { markdown, warnings } = normalizeArticleMarkdown("#### Setup\n\n---\n\nRun `npm i`.");
 * // markdown: "### Setup\n\nRun npm i."; warnings: 3 (heading level, rule, inline code)
 */
import { type InlineScope, type LinkDefinition, escapeText, linkLabel, normalizeInline } from "./markdown_inline.ts";
import { LIST_ITEM, normalizeList } from "./markdown_lists.ts";
import { type Construct, type SourceLine, warningText } from "./markdown_warnings.ts";
import { trimBlanks, trimBlanksEnd } from "../text/blanks.ts";

/** Normalised Markdown and what the conversion lost. */
export interface NormalizedMarkdown {
  markdown: string;
  warnings: string[];
}

/** Warnings kept per body; the rest are counted in a last one. */
export const MAX_WARNINGS = 50;

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const INDENTED_CODE = /^ {4,}\S/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** An ATX heading's opening: 1 to 6 `#`, then a blank or the end (the rest is read by `atxHeading`). */
const ATX_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const DEFINITION = /^ {0,3}\[((?:[^\]\\^]|\\.)(?:[^\]\\]|\\.)*)\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+("[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/;
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^([^\]]+)\]:[ \t]*(.*)$/;
// The last blanks belong to the last cell alone (a trailing `|?[ \t]*` after them would be quadratic).
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$/;
const HTML_BLOCK_TAGS =
  "address|article|aside|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|nav|ol|optgroup|option|p|param|pre|script|section|source|style|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul";
/** HTML that starts a block even in the middle of a paragraph (CommonMark kinds 1-6). */
const HTML_BLOCK = new RegExp(`^ {0,3}(?:<!--|<\\/?(?:${HTML_BLOCK_TAGS})(?=[\\s/>]|$))`, "i");
/** A lone complete tag on its line starts an HTML block only at a block start (kind 7). */
const HTML_LONE_TAG = /^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>\s*$/;

/** What block normalisation carries through nested quotes. */
interface BlockScope {
  inline: InlineScope;
  definitionLines: ReadonlySet<number>;
  warn(construct: Construct, line: number): void;
  /** Inside a blockquote: a quote in it is flattened. */
  quoted: boolean;
}

/** Normalises an article body to the subset X articles hold; see the module comment. */
export function normalizeArticleMarkdown(source: string): NormalizedMarkdown {
  const lines: SourceLine[] = source
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((text, index) => ({ text: expandLeadingTabs(text), no: index + 1 }));
  const found: { construct: Construct; line: number }[] = [];
  const warn = (construct: Construct, line: number) => void found.push({ construct, line });
  const { definitions, definitionLines } = collectDefinitions(lines);
  const blocks = normalizeBlocks(lines, { inline: { definitions, warn }, definitionLines, warn, quoted: false });
  const distinct = [...new Set(found.map((item) => warningText(item.construct, item.line)))];
  const warnings = distinct.slice(0, MAX_WARNINGS);
  if (distinct.length > MAX_WARNINGS) warnings.push(`${distinct.length - MAX_WARNINGS} more conversion problems were not listed`);
  return { markdown: blocks.join("\n\n"), warnings };
}

/** Normalises a run of lines into blocks (Markdown texts to be joined by blank lines). */
function normalizeBlocks(lines: readonly SourceLine[], scope: BlockScope): string[] {
  const blocks: string[] = [];
  let paragraph: SourceLine[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(paragraphBlock(paragraph, scope));
    paragraph = [];
  };
  let i = 0;
  while (i < lines.length) {
    const { text, no } = lines[i];
    if (text.trim() === "") {
      flush();
      i++;
      continue;
    }
    if (scope.definitionLines.has(no)) {
      i++;
      continue;
    }
    if (paragraph.length > 0) {
      const setext = SETEXT.exec(text);
      if (setext) {
        blocks.push(heading(setext[1][0] === "=" ? 1 : 2, paragraph.map((line) => line.text.trim()).join(" "), paragraph[0].no, scope));
        paragraph = [];
        i++;
        continue;
      }
      if (!startsBlock(text) && !isTableStart(lines, i)) {
        paragraph.push(lines[i]);
        i++;
        continue;
      }
      flush();
    }
    i = normalizeBlockAt(lines, i, blocks, scope, (line) => paragraph.push(line));
  }
  flush();
  return blocks.filter((block) => block !== "");
}

/** Normalises the block starting at line `i` into `blocks` (or opens a paragraph); answers the next line. */
function normalizeBlockAt(lines: readonly SourceLine[], i: number, blocks: string[], scope: BlockScope, openParagraph: (line: SourceLine) => void): number {
  const { text, no } = lines[i];
  const fence = FENCE.exec(text);
  if (fence && !(fence[2][0] === "`" && fence[3].includes("`"))) return codeFence(lines, i, fence, blocks, scope);
  if (INDENTED_CODE.test(text)) return indentedCode(lines, i, blocks, scope);
  if (isTableStart(lines, i)) return table(lines, i, blocks, scope);
  if (THEMATIC_BREAK.test(text)) {
    scope.warn("thematic_break", no);
    return i + 1;
  }
  const atx = atxHeading(text);
  if (atx) {
    blocks.push(heading(atx.level, atx.content, no, scope));
    return i + 1;
  }
  if (HTML_BLOCK.test(text) || HTML_LONE_TAG.test(text)) return htmlBlock(lines, i, blocks, scope);
  const footnote = FOOTNOTE_DEFINITION.exec(text);
  if (footnote) return footnoteDefinition(lines, i, footnote, blocks, scope);
  if (QUOTE.test(text)) return blockquote(lines, i, blocks, scope);
  if (LIST_ITEM.test(text)) {
    const list = normalizeList(lines, i, { inline: scope.inline, warn: scope.warn, startsBlock });
    blocks.push(list.markdown);
    return list.next;
  }
  openParagraph(lines[i]);
  return i + 1;
}

/** Whether `text` starts a block that may interrupt a paragraph (CommonMark). */
export function startsBlock(text: string): boolean {
  if (FENCE.test(text) || THEMATIC_BREAK.test(text) || ATX_OPEN.test(text) || QUOTE.test(text) || HTML_BLOCK.test(text)) return true;
  const item = LIST_ITEM.exec(text);
  // Only a non-empty bullet item or an ordered one starting at 1 interrupts a paragraph.
  return item !== null && (item[3] ?? "").trim() !== "" && (/^[-*+]$/.test(item[2]) || /^0*1[.)]$/.test(item[2]));
}

function paragraphBlock(lines: readonly SourceLine[], scope: BlockScope): string {
  const texts = lines.map((line, index) => {
    const trimmed = trimSpaces(line.text);
    // Two trailing spaces are a hard line break: written as a backslash, which survives trimming.
    return index < lines.length - 1 && /\S {2,}$/.test(line.text) ? `${trimmed}\\` : trimmed;
  });
  const inline = normalizeInline(texts.join("\n"), lines[0].no, scope.inline);
  return inline
    .split("\n")
    .map((line) => guardLineStart(trimSpaces(line)))
    .join("\n");
}

/**
 * Escapes the marker of a paragraph line that would read back as another block (text
 * that HTML or code stripping brought to the line's start), so the result is stable.
 */
function guardLineStart(line: string): string {
  if (!startsBlock(line) && !SETEXT.test(line) && !INDENTED_CODE.test(line)) return line;
  const ordered = /^(\d+)([.)])/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return /^[!-/:-@[-`{-~]/.test(line) ? `\\${line}` : line;
}

function heading(level: number, text: string, line: number, scope: BlockScope): string {
  if (level > 3) scope.warn("heading_level", line);
  const inline = normalizeInline(text.trim(), line, scope.inline).replace(/\n/g, " ").trim();
  return inline === "" ? "" : `${"#".repeat(Math.min(level, 3))} ${inline}`;
}

function codeFence(lines: readonly SourceLine[], start: number, fence: RegExpExecArray, blocks: string[], scope: BlockScope): number {
  const indent = fence[1].length;
  const closing = new RegExp(`^ {0,3}${fence[2][0] === "`" ? "`" : "~"}{${fence[2].length},}[ \\t]*$`);
  let end = start + 1;
  while (end < lines.length && !closing.test(lines[end].text)) end++;
  const body = lines.slice(start + 1, end).map((line) => line.text.replace(new RegExp(`^ {0,${indent}}`), ""));
  scope.warn("code_block", lines[start].no);
  blocks.push(...codeAsText(body));
  return Math.min(end + 1, lines.length);
}

function indentedCode(lines: readonly SourceLine[], start: number, blocks: string[], scope: BlockScope): number {
  let end = start;
  while (end < lines.length && (INDENTED_CODE.test(lines[end].text) || lines[end].text.trim() === "")) end++;
  scope.warn("code_block", lines[start].no);
  blocks.push(...codeAsText(lines.slice(start, end).map((line) => line.text.slice(4))));
  return end;
}

/**
 * Code as literal text: one paragraph per run of non-empty lines, each line kept on its
 * own (hard breaks), indentation kept as no-break spaces, every Markdown character escaped.
 */
function codeAsText(body: readonly string[]): string[] {
  const paragraphs: string[][] = [[]];
  for (const line of body) {
    if (line.trim() === "") paragraphs.push([]);
    else paragraphs.at(-1)!.push(line.trimEnd().replace(/^ +/, (spaces) => "\u00a0".repeat(spaces.length)));
  }
  return paragraphs.filter((group) => group.length > 0).map((group) => group.map((line) => escapeText(line)).join("\\\n"));
}

function isTableStart(lines: readonly SourceLine[], i: number): boolean {
  const header = lines[i].text;
  const delimiter = lines[i + 1]?.text;
  if (delimiter === undefined || !header.includes("|") || !delimiter.includes("|") || !TABLE_DELIMITER.test(delimiter)) return false;
  return tableCells(header).length === tableCells(delimiter).length;
}

/** A table row's cells (outer pipes dropped; `\|` stays inside a cell). */
function tableCells(row: string): string[] {
  const cells = row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/);
  return cells.map((cell) => cell.trim());
}

/** A table degrades to one line per row, cells separated by a middle dot. */
function table(lines: readonly SourceLine[], start: number, blocks: string[], scope: BlockScope): number {
  scope.warn("table", lines[start].no);
  const rows = [lines[start]];
  let end = start + 2;
  while (end < lines.length && lines[end].text.trim() !== "" && !startsBlock(lines[end].text)) rows.push(lines[end++]);
  const texts = rows
    .map((row) =>
      tableCells(row.text)
        .filter((cell) => cell !== "")
        .map((cell) => normalizeInline(cell, row.no, scope.inline))
        .join(" · "),
    )
    .filter((text) => text !== "")
    .map((text) => guardLineStart(text));
  if (texts.length > 0) blocks.push(texts.join("\\\n"));
  return end;
}

/** HTML degrades to its text, read literally (CommonMark keeps an HTML block raw). */
function htmlBlock(lines: readonly SourceLine[], start: number, blocks: string[], scope: BlockScope): number {
  scope.warn("html_block", lines[start].no);
  let end = start;
  while (end < lines.length && lines[end].text.trim() !== "") end++;
  const text = decodeEntities(
    lines
      .slice(start, end)
      .map((line) => line.text)
      .join("\n")
      .replace(/<!--[\s\S]*?(?:-->|$)/g, "")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/?[A-Za-z][^<>]*>/g, ""),
  );
  const kept = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (kept.length > 0) blocks.push(kept.map((line) => escapeText(line)).join("\n"));
  return end;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (entity, name: string) => {
    const code = name[0] !== "#" ? undefined : name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    return named[name.toLowerCase()] ?? entity;
  });
}

/** `[^1]: text` degrades to a paragraph `[1] text` (with its indented continuation lines). */
function footnoteDefinition(lines: readonly SourceLine[], start: number, match: RegExpExecArray, blocks: string[], scope: BlockScope): number {
  scope.warn("footnote", lines[start].no);
  let end = start + 1;
  const texts = [match[2].trim()];
  while (end < lines.length && /^ {2,}\S/.test(lines[end].text)) texts.push(lines[end++].text.trim());
  const body = normalizeInline(texts.join("\n"), lines[start].no, scope.inline);
  blocks.push(`\\[${escapeText(match[1])}\\] ${body}`.trim());
  return end;
}

/** A quote keeps one level; a quote inside a quote is flattened into it. */
function blockquote(lines: readonly SourceLine[], start: number, blocks: string[], scope: BlockScope): number {
  const inner: SourceLine[] = [];
  let end = start;
  while (end < lines.length) {
    const line = lines[end];
    if (QUOTE.test(line.text)) inner.push({ text: line.text.replace(/^ {0,3}> ?/, ""), no: line.no });
    // A lazy continuation line carries on the quote's paragraph.
    else if (line.text.trim() !== "" && inner.length > 0 && inner.at(-1)!.text.trim() !== "" && !startsBlock(line.text)) inner.push(line);
    else break;
    end++;
  }
  if (scope.quoted) {
    // Every deeper level at once: one warning, and no recursion however deep the nesting.
    scope.warn("nested_quote", lines[start].no);
    blocks.push(
      ...normalizeBlocks(
        inner.map((line) => ({ text: line.text.replace(/^(?: {0,3}> ?)+/, ""), no: line.no })),
        scope,
      ),
    );
    return end;
  }
  const body = normalizeBlocks(inner, { ...scope, quoted: true }).join("\n\n");
  if (body !== "")
    blocks.push(
      body
        .split("\n")
        .map((line) => (line === "" ? ">" : `> ${line}`))
        .join("\n"),
    );
  return end;
}

/** The link reference definitions outside code fences, and the lines that hold them. */
function collectDefinitions(lines: readonly SourceLine[]): { definitions: Map<string, LinkDefinition>; definitionLines: Set<number> } {
  const definitions = new Map<string, LinkDefinition>();
  const definitionLines = new Set<number>();
  let fence: RegExp | undefined;
  for (const line of lines) {
    if (fence) {
      if (fence.test(line.text)) fence = undefined;
      continue;
    }
    const opening = FENCE.exec(line.text);
    if (opening) {
      fence = new RegExp(`^ {0,3}${opening[2][0] === "`" ? "`" : "~"}{${opening[2].length},}[ \\t]*$`);
      continue;
    }
    const match = DEFINITION.exec(line.text);
    if (!match) continue;
    definitionLines.add(line.no);
    const label = linkLabel(match[1]);
    // The first definition of a label wins (CommonMark).
    if (!definitions.has(label)) definitions.set(label, { url: match[2].replace(/^<(.*)>$/, "$1"), title: match[3] !== undefined });
  }
  return { definitions, definitionLines };
}

/**
 * An ATX heading (CommonMark 4.2): its level and its content without the blanks around it and
 * without a closing run of `#` that stands alone or after a blank. Read by hand: the one regular
 * expression for it is quadratic on a long run of blanks.
 */
function atxHeading(text: string): { level: number; content: string } | undefined {
  const open = ATX_OPEN.exec(text);
  if (!open) return undefined;
  let content = trimBlanks(text.slice(open[0].length));
  let hashes = content.length;
  while (hashes > 0 && content[hashes - 1] === "#") hashes--;
  if (hashes < content.length && (hashes === 0 || content[hashes - 1] === " " || content[hashes - 1] === "\t"))
    content = trimBlanksEnd(content.slice(0, hashes));
  return { level: open[1].length, content };
}

/** Trims spaces and tabs only: a no-break space keeps degraded code's indentation. */
export function trimSpaces(text: string): string {
  return trimBlanks(text);
}

function expandLeadingTabs(text: string): string {
  const match = /^[ \t]+/.exec(text);
  if (!match?.[0].includes("\t")) return text;
  let column = 0;
  for (const char of match[0]) column = char === "\t" ? column + 4 - (column % 4) : column + 1;
  return " ".repeat(column) + text.slice(match[0].length);
}
