/**
 * The article Markdown normaliser (spec: Article, `content_markdown`; supplement: Articles,
 * "Markdown both ways"): the supported subset passes through, every other construct
 * degrades to text with one warning naming its line, non-http(s) URLs are refused, the
 * result is stable, and hostile input stays linear.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../core/errors.ts";
import { MAX_WARNINGS, normalizeArticleMarkdown } from "../core/articles/markdown_normalize.ts";

/** Normalises, and checks that the result is stable: normalised again, it is unchanged and warns about nothing. */
function normalize(source: string) {
  const result = normalizeArticleMarkdown(source);
  const again = normalizeArticleMarkdown(result.markdown);
  assert.equal(again.markdown, result.markdown, `not stable:\n${result.markdown}`);
  assert.deepEqual(again.warnings, [], `warns again:\n${result.markdown}`);
  return result;
}

describe("article Markdown: the subset X articles hold passes through", () => {
  test("headings 1-3, emphasis, strikethrough, links, images and a post URL on its own line are kept", () => {
    const source = [
      "# Title",
      "## Section",
      "### Part",
      "Some **bold**, *italic*, _also italic_ and ~~struck~~ text with a [link](https://example.com/a?b=1).",
      "![A chart](https://images.example/chart.png)",
      "https://x.com/ada_builds/status/1234567890",
    ].join("\n\n");
    const { markdown, warnings } = normalize(source);
    assert.equal(markdown, source);
    assert.deepEqual(warnings, []);
  });

  test("lists keep two levels; bullets become -, numbers N.", () => {
    const { markdown, warnings } = normalize("* one\n* two\n  + nested\n\n1) first\n2) second\n   - under second");
    assert.equal(markdown, "- one\n- two\n  - nested\n1. first\n2. second\n   - under second");
    assert.deepEqual(warnings, []);
  });

  test("a quote keeps its lines and lazy continuations", () => {
    const { markdown, warnings } = normalize("> quoted **words**\nlazy line\n>\n> second paragraph");
    assert.equal(markdown, "> quoted **words**\n> lazy line\n>\n> second paragraph");
    assert.deepEqual(warnings, []);
  });

  test("setext headings, reference links and autolinks are rewritten without loss", () => {
    const { markdown, warnings } = normalize(
      "Big\n===\n\nSmaller\n-------\n\nSee [the docs][docs], [Docs] and <https://example.com>.\n\n[docs]: https://example.com/docs",
    );
    assert.equal(markdown, "# Big\n\n## Smaller\n\nSee [the docs](https://example.com/docs), [Docs](https://example.com/docs) and <https://example.com>.");
    assert.deepEqual(warnings, []);
  });

  test("hard line breaks and escapes survive; CRLF and tabs are normalised", () => {
    const { markdown } = normalize("line one  \r\nline two\\\r\n\\*not emphasis\\*\r\n\r\n- item\r\n\t- tabbed item");
    assert.equal(markdown, "line one\\\nline two\\\n\\*not emphasis\\*\n\n- item\n  - tabbed item");
  });

  test("an empty body stays empty", () => {
    assert.deepEqual(normalize(""), { markdown: "", warnings: [] });
    assert.deepEqual(normalize("\n \n"), { markdown: "", warnings: [] });
  });
});

describe("article Markdown: other constructs degrade to text with a warning", () => {
  test("a fenced code block becomes literal text, line by line, indentation kept", () => {
    const { markdown, warnings } = normalize("Intro\n\n```ts\nconst a = *b* [c];\n  return a;\n\n# not a heading\n```\nAfter");
    assert.equal(markdown, "Intro\n\nconst a = \\*b\\* \\[c\\];\\\n\u00a0\u00a0return a;\n\n\\# not a heading\n\nAfter");
    assert.deepEqual(warnings, ["Code block on line 3 became plain text (X articles have no code blocks)"]);
  });

  test("an indented code block and an unclosed fence degrade too", () => {
    assert.equal(normalize("    let x = 1;\n    x += 2;\n\ntext").markdown, "let x = 1;\\\nx += 2;\n\ntext");
    const unclosed = normalize("```\nnever closed <b>");
    assert.equal(unclosed.markdown, "never closed \\<b\\>");
    assert.equal(unclosed.warnings.length, 1);
  });

  test("inline code becomes text", () => {
    const { markdown, warnings } = normalize("Run `npm *i*` and ``a ` b`` now; a lone ` stays");
    assert.equal(markdown, "Run npm \\*i\\* and a \\` b now; a lone ` stays");
    assert.deepEqual(warnings, ["Inline code on line 1 became plain text"]);
  });

  test("horizontal rules are removed; --- under a paragraph is a heading, not a rule", () => {
    const { markdown, warnings } = normalize("one\n\n---\n\ntwo\n\n* * *\n\nthree\n---");
    assert.equal(markdown, "one\n\ntwo\n\n## three");
    assert.deepEqual(warnings, [
      "Horizontal rule on line 3 was removed (X articles have no dividers)",
      "Horizontal rule on line 7 was removed (X articles have no dividers)",
    ]);
  });

  test("headings 4-6 become level 3", () => {
    const { markdown, warnings } = normalize("#### Four\n\n###### Six ##");
    assert.equal(markdown, "### Four\n\n### Six");
    assert.equal(warnings.length, 2);
    assert.match(warnings[1], /line 3/);
  });

  test("raw HTML is reduced to its text; entities decoded, read literally", () => {
    const { markdown, warnings } = normalize('<div class="note">\n<p>Fish &amp; *chips*</p>\n</div>\n\nInline <span>tag</span> and a<br>break, a < b.');
    assert.equal(markdown, "Fish \\& \\*chips\\*\n\nInline tag and a break, a < b.");
    assert.deepEqual(warnings, ["HTML on line 1 was reduced to its text", "HTML tag on line 5 was removed"]);
  });

  test("a table becomes one line per row", () => {
    const { markdown, warnings } = normalize("| Plan | Price |\n|:-----|------:|\n| Pro | **$10** |\n| Ultra | $30 |\n\nafter");
    assert.equal(markdown, "Plan · Price\\\nPro · **$10**\\\nUltra · $30\n\nafter");
    assert.deepEqual(warnings, ["Table on line 1 became plain text, one line per row"]);
  });

  test("footnotes become bracketed text", () => {
    const { markdown, warnings } = normalize("A claim[^src].\n\n[^src]: The source,\n  on two lines.");
    assert.equal(markdown, "A claim\\[src\\].\n\n\\[src\\] The source,\non two lines.");
    assert.deepEqual(warnings, ["Footnote reference on line 1 became plain text", "Footnote on line 3 became plain text"]);
  });

  test("task boxes become text; lists deeper than two levels move up", () => {
    const { markdown, warnings } = normalize("- [ ] todo\n- [x] done\n  - level 2\n    - level 3\n      - level 4");
    assert.equal(markdown, "- \\[ \\] todo\n- \\[x\\] done\n  - level 2\n  - level 3\n  - level 4");
    assert.deepEqual(warnings, [
      "Task list checkbox on line 1 became plain text",
      "Task list checkbox on line 2 became plain text",
      "List item on line 4 was nested more than 2 levels deep and was moved up to level 2",
      "List item on line 5 was nested more than 2 levels deep and was moved up to level 2",
    ]);
  });

  test("a quote inside a quote is flattened to one level", () => {
    const { markdown, warnings } = normalize("> outer\n>\n> > inner\n> > > deepest");
    assert.equal(markdown, "> outer\n>\n> inner\n> deepest");
    assert.deepEqual(warnings, ["Quote inside a quote on line 3 was flattened to one level"]);
  });

  test("link titles are dropped", () => {
    const { markdown, warnings } = normalize("[site](https://example.com \"Example\") and ![pic](https://example.com/p.png 'Pic')");
    assert.equal(markdown, "[site](https://example.com) and ![pic](https://example.com/p.png)");
    assert.equal(warnings.length, 1);
  });

  test(`warnings stop at ${MAX_WARNINGS} and count the rest`, () => {
    const { warnings } = normalize(Array.from({ length: 60 }, (_, i) => `Step ${i}: \`code\``).join("\n\n"));
    assert.equal(warnings.length, MAX_WARNINGS + 1);
    assert.equal(warnings.at(-1), "10 more conversion problems were not listed");
  });
});

describe("article Markdown: URLs that are not http(s) are refused", () => {
  for (const source of [
    "[x](javascript:alert(1))",
    "![p](/local.png)",
    "[top](#top)",
    "<mailto:ada@example.com>",
    "<ada@example.com>",
    "[ftp][f]\n\n[f]: ftp://example.com/file",
  ]) {
    test(`refuses ${JSON.stringify(source)} with 400 invalid_parameter naming content_markdown and the line`, () => {
      assert.throws(
        () => normalizeArticleMarkdown(source),
        (error: unknown) =>
          error instanceof ApiError &&
          error.status === 400 &&
          error.code === "invalid_parameter" &&
          /"content_markdown"/.test(error.message) &&
          /line 1/.test(error.message),
      );
    });
  }

  test("a URL inside degraded code is text, not a link", () => {
    assert.equal(normalize("`[x](javascript:alert(1))`").markdown, "\\[x\\](javascript:alert(1))");
  });
});

describe("article Markdown: ATX headings read by hand keep CommonMark's closing sequence", () => {
  test("a closing run of # after a blank is dropped; one glued to the text or escaped stays", () => {
    for (const [source, heading] of [
      ["## Title ##", "## Title"],
      ["## Title ##   ", "## Title"],
      ["### ###", ""],
      ["# Title#", "# Title#"],
      ["#\tTabbed\t#", "# Tabbed"],
    ] as const) {
      assert.equal(normalizeArticleMarkdown(source).markdown.trim(), heading, source);
    }
  });
});

describe("article Markdown: hostile input stays linear", () => {
  const cases: [string, string][] = [
    ["brackets", "[".repeat(100_000)],
    ["link openers", "[a](".repeat(25_000)],
    ["angle brackets", "<".repeat(100_000)],
    ["backtick runs", Array.from({ length: 400 }, (_, i) => `${"`".repeat(i + 1)}x`).join(" ")],
    ["deep quotes", "> ".repeat(30_000)],
    ["deep lists", Array.from({ length: 5000 }, (_, i) => `${" ".repeat((i % 50) * 2)}- x`).join("\n")],
    ["blanks inside a heading", `# a${" ".repeat(100_000)}b`],
    ["blanks around a heading's closing #", `# a${" ".repeat(50_000)}#${" ".repeat(50_000)}b`],
    ["blanks after a table delimiter", `| a | b |\n|---|-${" ".repeat(100_000)}x`],
    ["blanks inside a paragraph line", `a${" \t".repeat(50_000)}b`],
  ];
  for (const [name, source] of cases) {
    test(`${name}: 100,000 characters in well under a second`, () => {
      const started = performance.now();
      normalizeArticleMarkdown(source);
      assert.ok(performance.now() - started < 1000, `${name} took ${(performance.now() - started).toFixed(0)} ms`);
    });
  }
});
