/**
 * An article's Markdown as the DraftJS `content_state` X's Articles API takes
 * (`POST /2/articles/draft`): one block per paragraph, heading, list item, quote or
 * code fence, with bold and italic as inline style ranges (offsets in UTF-16 units, as
 * DraftJS counts). Links keep their text and show the address after it; images are
 * left out, since X embeds only media uploaded through its own media endpoint. The shapes
 * are X's `ArticleCreateDraftRequest` (openapi.json): block types and the lowercase styles
 * `bold` / `italic` are its enums, blocks take no `depth`, and a code fence is an `atomic`
 * block pointing at a `markdown` entity ("markdown carries code blocks").
 */

/** One DraftJS block. */
export interface ContentBlock {
  key: string;
  text: string;
  type: "unstyled" | "header-one" | "header-two" | "unordered-list-item" | "ordered-list-item" | "blockquote" | "atomic";
  inline_style_ranges: { offset: number; length: number; style: "bold" | "italic" }[];
  entity_ranges: { key: number; offset: number; length: number }[];
}

/** One DraftJS entity: here only `markdown`, for code fences. */
export interface ContentEntity {
  key: string;
  value: { type: "markdown"; mutability: "mutable"; data: { markdown: string } };
}

/** The content state of `markdown`. */
export function markdownContentState(markdown: string): { blocks: ContentBlock[]; entities: ContentEntity[] } {
  const blocks: ContentBlock[] = [];
  const entities: ContentEntity[] = [];
  const add = (type: Exclude<ContentBlock["type"], "atomic">, raw: string) => {
    const { text, ranges } = inline(raw);
    if (text.trim() !== "") blocks.push({ key: `b${blocks.length}`, text, type, inline_style_ranges: ranges, entity_ranges: [] });
  };
  const addCode = (opening: string, code: string, closing: string) => {
    if (code.trim() === "") return;
    // An atomic placeholder's text is "typically a single space" (openapi.json, ArticleCreateDraftContentStateBlocks.text).
    blocks.push({
      key: `b${blocks.length}`,
      text: " ",
      type: "atomic",
      inline_style_ranges: [],
      entity_ranges: [{ key: entities.length, offset: 0, length: 1 }],
    });
    entities.push({ key: String(entities.length), value: { type: "markdown", mutability: "mutable", data: { markdown: `${opening}\n${code}\n${closing}` } } });
  };
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) add("unstyled", paragraph.join(" "));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)(.*)$/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trimStart().startsWith(fence[1])) code.push(lines[i]);
      addCode(`${fence[1]}${fence[2].trim()}`, code.join("\n"), fence[1]);
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
  return { blocks, entities };
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
    ranges.push({ offset: text.length, length: inner.length, style: bold !== undefined ? "bold" : "italic" });
    text += inner;
    last = match.index + match[0].length;
  }
  return { text: text + linked.slice(last), ranges };
}
