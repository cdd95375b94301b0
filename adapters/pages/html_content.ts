/** Pulls what a product page says about itself out of its HTML, without a DOM. */
import type { PageContent } from "../../core/ports/page_reader.ts";

const TEXT_LIMIT = 20_000;

function decode(text: string): string {
  return text
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/\s+/g, " ")
    .trim();
}

function meta(html: string, name: string): string | null {
  const pattern = new RegExp(`<meta[^>]+(?:name|property)=["']${name}["'][^>]*>`, "i");
  const tag = pattern.exec(html)?.[0];
  const content = tag && /content=["']([^"']*)["']/i.exec(tag)?.[1];
  return content ? decode(content) : null;
}

/** The title, description, highlights and text of an HTML page. */
export function htmlContent(url: string, html: string): PageContent {
  const body = html.replace(/<(script|style|noscript|svg)[\s\S]*?<\/\1>/gi, " ");
  const titleTag = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const title = meta(body, "og:title") ?? (titleTag ? decode(titleTag) : null);
  const highlights = [...body.matchAll(/<(h[1-3]|li)[^>]*>([\s\S]*?)<\/\1>/gi)]
    .map((match) => decode(match[2].replace(/<[^>]+>/g, " ")))
    .filter((line) => line.length > 2 && line.length <= 200)
    .slice(0, 30);
  const text = decode(body.replace(/<[^>]+>/g, " ")).slice(0, TEXT_LIMIT);
  return { url, title: title || null, description: meta(body, "og:description") ?? meta(body, "description"), highlights, text };
}
