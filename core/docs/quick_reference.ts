/**
 * The Markdown quick reference `GET /v1/docs` answers by default (the real service's
 * CLI prints it as text: supplement 1.4), written from the OpenAPI document so the
 * two never disagree.
 */
import { API_DESCRIPTION } from "./api_description.ts";
import { mcpConnectionGuide } from "./mcp_tools.ts";

type Json = Record<string, any>;

/** One endpoint line of the reference. */
export interface ReferenceEntry {
  tag: string;
  method: string;
  path: string;
  summary: string;
  parameters: string[];
  status: string;
  errors: string[];
}

/** Flattens the document into entries grouped by tag, in document order. */
export function referenceEntries(document: Json): ReferenceEntry[] {
  const entries: ReferenceEntry[] = [];
  for (const [path, operations] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      const body = operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {};
      const parameters = [
        ...(operation.parameters ?? []).map((p: Json) => `${p.name} (${p.in}${p.required ? ", required" : ""})`),
        ...Object.keys(body).map((name) => `${name} (body)`),
      ];
      const statuses = Object.keys(operation.responses ?? {});
      entries.push({
        tag: operation.tags?.[0] ?? "Other",
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? "",
        parameters,
        status: statuses.find((s) => s.startsWith("2")) ?? "200",
        errors: statuses.filter((s) => !s.startsWith("2")).map((s) => `${s} ${(operation.responses[s].description ?? "").replace(/;.*$/, "")}`),
      });
    }
  }
  return entries;
}

/** Renders the quick reference. */
export function buildQuickReference(document: Json): string {
  const lines = [`# ${document.info.title} ${document.info.version}`, "", API_DESCRIPTION, "", "## Endpoints"];
  let tag = "";
  for (const entry of referenceEntries(document).sort((a, b) => a.tag.localeCompare(b.tag))) {
    if (entry.tag !== tag) lines.push("", `### ${(tag = entry.tag)}`, "");
    lines.push(`- \`${entry.method} ${entry.path}\` → ${entry.status}: ${entry.summary}`);
    if (entry.parameters.length) lines.push(`  - parameters: ${entry.parameters.join(", ")}`);
    if (entry.errors.length) lines.push(`  - errors: ${entry.errors.join("; ")}`);
  }
  lines.push("", "## MCP tools", "", ...mcpConnectionGuide(serverOrigin(document)), "", "Toolsets and their tools:", "");
  for (const [toolset, tools] of Object.entries<string[]>(document["x-mcp"]?.toolsets ?? {})) lines.push(`- \`${toolset}\`: ${tools.join(", ")}`);
  lines.push("", "The full OpenAPI 3.1 document: `GET /v1/docs` with `Accept: application/json` or `?format=openapi`.", "");
  return lines.join("\n");
}

/** The server's origin as the document names it (its `servers` entry without `/v1`). */
export function serverOrigin(document: Json): string {
  return String(document.servers?.[0]?.url ?? "http://127.0.0.1:8787").replace(/\/v1\/?$/, "");
}
