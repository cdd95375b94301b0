/**
 * Pages of the reserved example domains (RFC 2606: `.example`, `.test`, `.invalid`),
 * which can never exist on the internet, answered without the network so the embedded
 * default can read the demo world's product pages offline. Any other URL goes to the
 * HTTP reader. `.invalid` hosts fail the way an unreachable site does.
 */
import { type PageContent, type PageReader, PageReadError } from "../../core/ports/page_reader.ts";

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

function titleCase(parts: string[]): string {
  return parts.map((part) => part[0].toUpperCase() + part.slice(1)).join(" ");
}

/** The page an example-domain URL stands for: named after its host and path. */
export function examplePage(url: URL): PageContent {
  const brand = titleCase(words(url.hostname.replace(/\.(example|test)$/, "")).filter((part) => part !== "www"));
  const topic = titleCase(words(decodeURIComponent(url.pathname)));
  const title = topic ? `${brand} ${topic}` : brand;
  const description = `${title}: ${topic ? `the ${topic.toLowerCase()} part of ${brand}` : brand}, for teams who want it done well.`;
  const highlights = [title, `Why ${brand}`, `${topic || brand} in minutes`, "Pricing that grows with you"];
  return { url: url.href, title, description, highlights, text: [title, description, ...highlights].join(" ") };
}

/** Reads example-domain pages locally and every other page with `http`. */
export function withExampleDomains(http: PageReader): PageReader {
  return {
    async read(address, options) {
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        return http.read(address, options);
      }
      if (/\.invalid$/i.test(url.hostname)) throw new PageReadError(`Cannot reach "${url.host}"`);
      if (/\.(example|test)$/i.test(url.hostname)) return examplePage(url);
      return http.read(address, options);
    },
  };
}
