/** The HTML page `GET /v1/docs` answers to browsers, from the same entries as the Markdown reference. */
import { referenceEntries } from "./quick_reference.ts";
import { API_DESCRIPTION } from "./api_description.ts";
import { mcpConnectionGuide } from "./mcp_tools.ts";
import { serverOrigin } from "./quick_reference.ts";
import { escapeHtml } from "../text/escape_html.ts";

type Json = Record<string, any>;

/** Escapes text and turns `code` spans and **bold** into markup. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

/** Renders the reference page. */
export function buildHtmlReference(document: Json): string {
  const intro = API_DESCRIPTION.split("\n").filter(Boolean);
  const sections = new Map<string, string[]>();
  for (const entry of referenceEntries(document)) {
    const items = sections.get(entry.tag) ?? [];
    items.push(
      `<li><code>${entry.method} ${escapeHtml(entry.path)}</code> → ${entry.status}: ${inline(entry.summary)}` +
        (entry.parameters.length ? `<br><small>parameters: ${escapeHtml(entry.parameters.join(", "))}</small>` : "") +
        (entry.errors.length ? `<br><small>errors: ${inline(entry.errors.join("; "))}</small>` : "") +
        "</li>",
    );
    sections.set(entry.tag, items);
  }
  const body = [...sections]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, items]) => `<h2>${escapeHtml(tag)}</h2><ul>${items.join("")}</ul>`)
    .join("\n");
  const [mcpIntro, , ...mcpClients] = mcpConnectionGuide(serverOrigin(document));
  const toolsets = Object.entries<string[]>(document["x-mcp"]?.toolsets ?? {})
    .map(([toolset, tools]) => `<li><code>${escapeHtml(toolset)}</code>: ${escapeHtml(tools.join(", "))}</li>`)
    .join("");
  const mcp = `<h2>MCP tools</h2><p>${inline(mcpIntro)}</p><ul>${mcpClients.map((line) => `<li>${inline(line.replace(/^- /, ""))}</li>`).join("")}</ul><p>Toolsets:</p><ul>${toolsets}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}li{margin:.4em 0}</style>
</head><body><h1>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</h1>
<p>${inline(intro[0])}</p><ul>${intro
    .slice(1)
    .map((line) => `<li>${inline(line.replace(/^- /, ""))}</li>`)
    .join("")}</ul>
${body}
${mcp}
<p>OpenAPI 3.1 JSON: <a href="?format=openapi"><code>?format=openapi</code></a></p>
</body></html>`;
}
