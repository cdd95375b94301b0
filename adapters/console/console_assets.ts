/**
 * The console's built files (dist/console, made by vite.config.ts): found beside the source in a
 * clone, or beside the compiled module in the npm package, read once and kept gzipped in memory.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** One file of the console as it is answered. */
export interface ConsoleAsset {
  body: Uint8Array;
  gzipped: Uint8Array | undefined;
  contentType: string;
  /** Vite's hashed names under `assets/` never change content: cached for a year. */
  immutable: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
};

/** Where the built console is: dist/console from a clone (tsx), or the package's own dist/console. */
export function consoleDirectory(): string | undefined {
  const candidates = [fileURLToPath(new URL("../../dist/console", import.meta.url)), fileURLToPath(new URL("../../console", import.meta.url))];
  return candidates.find((dir) => existsSync(join(dir, "index.html")));
}

/** Builds the console when no built copy exists (a clone installed with `--ignore-scripts`); answers whether one exists after. */
export async function ensureConsoleBuilt(): Promise<boolean> {
  if (consoleDirectory()) return true;
  try {
    const vite = await import("vite");
    await vite.build({ configFile: fileURLToPath(new URL("./vite.config.ts", import.meta.url)) });
  } catch {
    // No Vite (an installed package never lacks its built console): the route answers 503.
    return false;
  }
  return consoleDirectory() !== undefined;
}

/** Reads every built file into memory, keyed by its path below `/console/`. */
export async function loadConsoleAssets(dir: string): Promise<Map<string, ConsoleAsset>> {
  const assets = new Map<string, ConsoleAsset>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const name = relative(dir, file).split(sep).join("/");
    const body = await readFile(file);
    const contentType = CONTENT_TYPES[extname(name)] ?? "application/octet-stream";
    const compressible = /^(text\/|image\/svg|application\/json)/.test(contentType);
    assets.set(name, { body, gzipped: compressible ? gzipSync(body, { level: 9 }) : undefined, contentType, immutable: name.startsWith("assets/") });
  }
  return assets;
}
