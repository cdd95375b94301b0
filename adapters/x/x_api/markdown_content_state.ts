/**
 * An article's Markdown as the DraftJS `content_state` X's Articles API takes
 * (`POST /2/articles/draft`): one block per paragraph, heading, list item, quote or
 * code fence, with bold and italic as inline style ranges (offsets in UTF-16 units, as
 * DraftJS counts). Links keep their text and show the address after it; images are
 * left out, since X embeds only media uploaded through its own media endpoint.
 */

/** One DraftJS block. */
export interface ContentBlock {
  key: string;
  text: string;
  type: "unstyled" | "header-one" | "header-two" | "unordered-list-item" | "ordered-list-item" | "blockquote" | "code-block";
  depth: number;
  inline_style_ranges: { offset: number; length: number; style: "BOLD" | "ITALIC" }[];
  entity_ranges: never[];
}

/** The content state of `markdown`. */
export function markdownContentState(markdown: string): { blocks: ContentBlock[]; entities: never[] } {
  const blocks: ContentBlock[] = [];
  const add = (type: ContentBlock["type"], raw: string) => {
    const { text, ranges } = type === "code-block" ? { text: raw, ranges: [] } : inline(raw);
    if (text.trim() !== "") blocks.push({ key: `b${blocks.length}`, text, type, depth: 0, inline_style_ranges: ranges, entity_ranges: [] });
  };
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) add("unstyled", paragraph.join(" "));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trimStart().startsWith(fence[1])) code.push(lines[i]);
      add("code-block", code.join("\n"));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (heading || bullet || numbered || quote || line.trim() === "" || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) flush();
    if (heading) add(heading[1].length === 1 ? "header-one" : "header-two", heading[2]);
    else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) continue;
    else if (bullet) add("unordered-list-item", bullet[1]);
    else if (numbered) add("ordered-list-item", numbered[1]);
    else if (quote) add("blockquote", quote[1]);
    else if (line.trim() !== "") paragraph.push(line.trim());
  }
  flush();
  return { blocks, entities: [] };
}

/** Strips inline Markdown, recording bold and italic spans (`_` only at word edges, so snake_case stays). */
function inline(raw: string): { text: string; ranges: ContentBlock["inline_style_ranges"] } {
  const linked = raw
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, "$1 ($2)")
    .replace(/`([^`]+)`/g, "$1");
  const ranges: ContentBlock["inline_style_ranges"] = [];
  const pattern = /\*\*(.+?)\*\*|(?<!\w)__(.+?)__(?!\w)|\*(?=\S)(.+?)(?<=\S)\*|(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)/g;
  let text = "";
  let last = 0;
  for (let match = pattern.exec(linked); match; match = pattern.exec(linked)) {
    text += linked.slice(last, match.index);
    const bold = match[1] ?? match[2];
    const inner = bold ?? match[3] ?? match[4];
    ranges.push({ offset: text.length, length: inner.length, style: bold !== undefined ? "BOLD" : "ITALIC" });
    text += inner;
    last = match.index + match[0].length;
  }
  return { text: text + linked.slice(last), ranges };
}
