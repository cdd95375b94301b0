/**
 * Which tools a caller sees: the whole catalog for a write key, the read tools for a
 * read-only key (docs/mcp.md: a read-only key lists only the read tools), narrowed to the
 * toolsets asked for (`?toolsets=scheduling,articles` or `X-MCP-Toolsets`).
 */
import type { AnyRouter } from "@trpc/server";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Services, Settings } from "../../core/context.ts";
import { ApiError } from "../../core/errors.ts";
import { buildToolCatalog, type CatalogTool } from "./tool_catalog.ts";
import { toolDefinition, type ToolSession } from "./mcp_server.ts";

/** Every tool of a router, by name, and the toolset names. */
export interface ToolCatalog {
  tools: readonly CatalogTool[];
  byName: ReadonlyMap<string, CatalogTool>;
  toolsets: readonly string[];
  /** The `tools/list` answers built so far, by scope, toolsets and closed toolsets (a few per server). */
  lists: Map<string, ToolList>;
  /** The tools callable by name per set of closed toolsets (the operator's: one or two per server). */
  openByName: Map<string, ReadonlyMap<string, CatalogTool>>;
}

/** One `tools/list` answer: the tools and their `result` serialized once. */
export interface ToolList {
  listed: readonly CatalogTool[];
  json: string;
}

const catalogs = new WeakMap<AnyRouter, ToolCatalog>();

/** `tools/list` answers kept per catalog (each up to about 400 KB). */
const MAX_CACHED_LISTS = 32;

/** The catalog of `router`, built once from the OpenAPI document. */
export function toolCatalogOf(router: AnyRouter, services: Services): ToolCatalog {
  let catalog = catalogs.get(router);
  if (!catalog) {
    const tools = buildToolCatalog(router, services.docs().openapi);
    catalog = {
      tools,
      byName: new Map(tools.map((tool) => [tool.name, tool])),
      toolsets: [...new Set(tools.map((tool) => tool.toolset))],
      lists: new Map(),
      openByName: new Map(),
    };
    catalogs.set(router, catalog);
  }
  return catalog;
}

/**
 * Toolsets the operator must turn on before MCP offers them: the webhook tools register a
 * receiver and rotate its secret, a way for an agent steered by the network content it reads
 * to send data out (`MCP_WEBHOOK_TOOLS`, Settings.mcpWebhookTools).
 */
export function closedToolsets(settings: Settings): ReadonlySet<string> {
  return settings.mcpWebhookTools ? new Set() : new Set(["webhooks"]);
}

/**
 * The toolsets named in `text` (a comma list), or undefined for all; an unknown name, or one
 * the operator has not turned on, is `400 invalid_parameter`.
 */
export function parseToolsets(text: string | null | undefined, catalog: ToolCatalog, closed: ReadonlySet<string> = new Set()): ReadonlySet<string> | undefined {
  const names = (text ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  const unknown = names.filter((name) => !catalog.toolsets.includes(name));
  if (unknown.length > 0) {
    throw new ApiError("invalid_parameter", `Invalid "toolsets": unknown toolset "${unknown[0].slice(0, 40)}"; choose from ${catalog.toolsets.join(", ")}`);
  }
  const off = names.find((name) => closed.has(name));
  if (off)
    throw new ApiError(
      "invalid_parameter",
      `Invalid "toolsets": the "${off}" toolset is off on this server (its operator sets MCP_WEBHOOK_TOOLS=true to offer it)`,
    );
  return new Set(names);
}

/**
 * A session over `catalog` for a key that can (or cannot) write, running calls with `call`.
 * A closed toolset's tools are neither listed nor callable by name.
 */
export function toolSession(
  catalog: ToolCatalog,
  options: { canWrite: boolean; toolsets?: ReadonlySet<string>; closed?: ReadonlySet<string> },
  call: (tool: CatalogTool, args: Record<string, unknown> | undefined) => Promise<CallToolResult>,
): ToolSession {
  const closed = options.closed ?? new Set<string>();
  const open = (tool: CatalogTool) => !closed.has(tool.toolset);
  const byName = closed.size === 0 ? catalog.byName : openTools(catalog, closed);
  // The list a key sees depends only on these three, so each answer is built and serialized
  // once per server (about 400 KB of JSON for a write key's whole catalog).
  const listKey = [options.canWrite, [...(options.toolsets ?? [])].sort().join(","), [...closed].sort().join(",")].join("|");
  let list = catalog.lists.get(listKey);
  if (!list) {
    const listed = catalog.tools.filter((tool) => open(tool) && (options.canWrite || !tool.write) && (!options.toolsets || options.toolsets.has(tool.toolset)));
    list = { listed, json: JSON.stringify({ tools: listed.map(toolDefinition) }) };
    // The toolsets are the caller's choice: a bounded number of lists is kept, so sending every
    // combination of toolsets cannot grow the cache without end (past it, built per request).
    if (catalog.lists.size < MAX_CACHED_LISTS) catalog.lists.set(listKey, list);
  }
  return { listed: list.listed, listedJson: list.json, byName, call };
}

/** The tools callable by name with `closed` toolsets shut, built once per catalog and set of closed toolsets (the operator's). */
function openTools(catalog: ToolCatalog, closed: ReadonlySet<string>): ReadonlyMap<string, CatalogTool> {
  const key = [...closed].sort().join(",");
  let byName = catalog.openByName.get(key);
  if (!byName) {
    byName = new Map([...catalog.byName].filter(([, tool]) => !closed.has(tool.toolset)));
    catalog.openByName.set(key, byName);
  }
  return byName;
}
