/**
 * Inline Markdown of an article (supplement: Articles, "Markdown both ways"): bold, italic,
 * strikethrough, links and images by http(s) URL pass through; inline code, inline HTML
 * and footnote references degrade to text with a warning; reference links are resolved
 * to inline links; a link or image URL that is not http(s) is refused (`400
 * invalid_parameter`: "Non-http(s) image or link URLs fail with 400").
 */
import { ApiError } from "../errors.ts";

/** A link reference definition (`[label]: url`), keyed by its normalised label. */
export interface LinkDefinition {
  url: string;
  title: boolean;
}

/** What inline normalisation reads and reports into. */
export interface InlineScope {
  /** Definitions of the whole document (`linkLabel` keys). */
  definitions: ReadonlyMap<string, LinkDefinition>;
  /** Records a conversion problem (`construct` names it; `line` is 1-based). */
  warn(construct: InlineConstruct, line: number): void;
}

/** Inline constructs that degrade. */
export type InlineConstruct = "inline_code" | "inline_html" | "footnote_reference" | "link_title";

/** The key a reference label is matched by (case and inner whitespace ignored, as CommonMark). */
export function linkLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Escapes `text` so Markdown reads it literally: what degraded to text (code) must not
 * turn into emphasis, links or block markers when read back.
 */
export function escapeText(text: string): string {
  return text
    .replace(/[\\`*_~[\]<>&|]/g, "\\$&")
    .split("\n")
    .map((line) => line.replace(/^(\s*)([#+=-])/, "$1\\$2").replace(/^(\s*\d+)([.)])/, "$1\\$2"))
    .join("\n");
}

const ESCAPABLE = /[!-/:-@[-`{-~\n]/;
// Sticky patterns, matched at an index: slicing the text at every `<` or `[` would be quadratic.
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const EMAIL_AUTOLINK = /<([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/y;
const HTML_TAG = /<(?:!--[\s\S]*?-->|\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*?)?\/?>)/y;
const FOOTNOTE_REF = /\[\^([^\]\s]+)\]/y;
/** The longest link destination and title read, so a text full of `](` stays linear. */
const MAX_DESTINATION = 2048;
const MAX_TITLE = 1000;
/** Destination characters other than spaces, parentheses and escapes (skipped natively). */
const PLAIN_DESTINATION = /(?:[^\s()\\]|\\[\s\S])*/y;

function matchAt(pattern: RegExp, text: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(text);
}

/** Normalises the inline Markdown of one block's text; `line` is where the block starts. */
export function normalizeInline(text: string, line: number, scope: InlineScope): string {
  let out = "";
  let i = 0;
  // The line a construct starts on, for warnings and errors.
  const breaks = newlineIndexes(text);
  const brackets = bracketPairs(text);
  // Destination scans read at most about twice the text in all: text made of unclosed
  // `](` cannot make them quadratic (a real link's destination is read once).
  const budget = { left: 2 * text.length + MAX_DESTINATION };
  const lineAt = (index: number) => line + countBefore(breaks, index);
  while (i < text.length) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length && ESCAPABLE.test(text[i + 1])) {
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === "`") {
      const run = runLength(text, i, "`");
      const close = closingRun(text, i + run, run);
      if (close === -1) {
        // An unmatched run is literal text (CommonMark).
        out += "`".repeat(run);
        i += run;
        continue;
      }
      let code = text.slice(i + run, close).replace(/\n/g, " ");
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
      scope.warn("inline_code", lineAt(i));
      out += escapeText(code);
      i = close + run;
      continue;
    }
    if (char === "<") {
      const autolink = matchAt(AUTOLINK, text, i);
      if (autolink) {
        out += `<${checkedUrl(autolink[1], "link", lineAt(i))}>`;
        i += autolink[0].length;
        continue;
      }
      const email = matchAt(EMAIL_AUTOLINK, text, i);
      if (email) checkedUrl(`mailto:${email[1]}`, "link", lineAt(i));
      const tag = matchAt(HTML_TAG, text, i);
      if (tag) {
        scope.warn("inline_html", lineAt(i));
        // A line break tag keeps the words apart; other tags simply go.
        if (/^<br\b/i.test(tag[0])) out += " ";
        i += tag[0].length;
        continue;
      }
      out += "<";
      i += 1;
      continue;
    }
    const ref = char === "[" ? matchAt(FOOTNOTE_REF, text, i) : null;
    if (ref) {
      scope.warn("footnote_reference", lineAt(i));
      out += `\\[${escapeText(ref[1])}\\]`;
      i += ref[0].length;
      continue;
    }
    if (char === "[" || (char === "!" && text[i + 1] === "[")) {
      const image = char === "!";
      const link = parseLink(text, image ? i + 1 : i, { brackets, budget }, scope);
      if (link) {
        const kind = image ? "image" : "link";
        const url = checkedUrl(link.url, kind, lineAt(i));
        if (link.title) scope.warn("link_title", lineAt(i));
        const label = normalizeInline(link.text, lineAt(i), scope);
        out += `${image ? "!" : ""}[${label}](${/[()]/.test(url) ? `<${url}>` : url})`;
        i = link.end;
        continue;
      }
    }
    out += char;
    i += 1;
  }
  return out;
}

/** A parsed link: its text, destination, whether it had a title, and where it ends. */
interface ParsedLink {
  text: string;
  url: string;
  title: boolean;
  end: number;
}

/** Parses `[text](url "title")`, `[text][ref]`, `[text][]` or `[ref]` starting at `start` (the `[`). */
function parseLink(text: string, start: number, scan: LinkScan, scope: InlineScope): ParsedLink | undefined {
  const { brackets } = scan;
  const close = brackets.get(start);
  if (close === undefined) return undefined;
  const label = text.slice(start + 1, close);
  if (text[close + 1] === "(") {
    const target = parseDestination(text, close + 2, scan.budget);
    return target && { text: label, url: target.url, title: target.title, end: target.end };
  }
  if (text[close + 1] === "[") {
    const refClose = brackets.get(close + 1);
    if (refClose !== undefined) {
      const ref = text.slice(close + 2, refClose);
      const found = scope.definitions.get(linkLabel(ref === "" ? label : ref));
      if (found) return { text: label, url: found.url, title: found.title, end: refClose + 1 };
    }
    return undefined;
  }
  const found = scope.definitions.get(linkLabel(label));
  return found && { text: label, url: found.url, title: found.title, end: close + 1 };
}

/** What link parsing shares across one text: bracket pairs and the scan budget. */
interface LinkScan {
  brackets: ReadonlyMap<number, number>;
  budget: { left: number };
}

/** Each `[` and the `]` closing it (nesting and escapes respected), found in one pass. */
function bracketPairs(text: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let i = text.indexOf("["); i !== -1 && i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i++;
    else if (char === "[") open.push(i);
    else if (char === "]" && open.length > 0) pairs.set(open.pop()!, i);
  }
  return pairs;
}

/** Parses `url "title")` after `(`; undefined when it is not a destination. */
function parseDestination(text: string, start: number, budget: { left: number }): { url: string; title: boolean; end: number } | undefined {
  if (budget.left <= 0) return undefined;
  let i = skipSpaces(text, start);
  let url = "";
  if (text[i] === "<") {
    const end = text.indexOf(">", i);
    if (end === -1 || end - i > MAX_DESTINATION || text.slice(i, end).includes("\n")) return undefined;
    url = text.slice(i + 1, end);
    i = end + 1;
  } else {
    let depth = 0;
    const from = i;
    const limit = Math.min(text.length, i + MAX_DESTINATION, i + budget.left);
    for (;;) {
      i = matchAt(PLAIN_DESTINATION, text, i) ? PLAIN_DESTINATION.lastIndex : i;
      if (i >= limit) {
        if (i - from > MAX_DESTINATION || i - from >= budget.left) {
          budget.left -= i - from + 1;
          return undefined;
        }
        break;
      }
      if (/\s/.test(text[i])) break;
      if (text[i] === "(") depth++;
      else if (depth-- === 0) break;
      i++;
    }
    budget.left -= i - from + 1;
    url = text.slice(from, i);
  }
  i = skipSpaces(text, i);
  let title = false;
  const opener = text[i];
  if (opener === '"' || opener === "'" || opener === "(") {
    const closer = opener === "(" ? ")" : opener;
    const end = text.indexOf(closer, i + 1);
    if (end === -1 || end - i > MAX_TITLE) return undefined;
    title = true;
    i = skipSpaces(text, end + 1);
  }
  if (text[i] !== ")") return undefined;
  return { url, title, end: i + 1 };
}

/** `url` when it is an absolute http(s) URL; else `400 invalid_parameter`. */
export function checkedUrl(url: string, kind: "link" | "image", line: number): string {
  if (/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(url)) return url;
  throw new ApiError(
    "invalid_parameter",
    `Invalid "content_markdown": the ${kind} URL "${url.slice(0, 200)}" on line ${line} must be an http:// or https:// URL`,
  );
}

function runLength(text: string, start: number, char: string): number {
  let end = start;
  while (text[end] === char) end++;
  return end - start;
}

/** Where a backtick run of exactly `length` starts after `from`, or -1. */
function closingRun(text: string, from: number, length: number): number {
  let i = text.indexOf("`", from);
  while (i !== -1) {
    const run = runLength(text, i, "`");
    if (run === length) return i;
    i = text.indexOf("`", i + run);
  }
  return -1;
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n")) i++;
  return i;
}

function newlineIndexes(text: string): number[] {
  const indexes: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) indexes.push(i);
  return indexes;
}

/** How many of the sorted `indexes` are below `index` (binary search). */
function countBefore(indexes: readonly number[], index: number): number {
  let low = 0;
  let high = indexes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (indexes[middle] < index) low = middle + 1;
    else high = middle;
  }
  return low;
}
