/**
 * The logger of a Threadline instance: pino JSON lines (ARCHITECTURE: Operations). An
 * embedder or a test passes its own pino logger, or a level; `serve` reads `LOG_LEVEL`.
 */
import { pino, type Logger } from "pino";

export type { Logger } from "pino";

/** The levels `LOG_LEVEL` accepts. */
const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/**
 * The caller's logger, else a new one at `level` (default `info`) writing to stdout, or
 * to `destination` (a file descriptor: `threadline mcp` keeps stdout for the protocol).
 */
export function openLogger(options: { logger?: Logger; level?: string; destination?: number }): Logger {
  if (options.logger) return options.logger;
  const level = options.level ?? "info";
  if (!LEVELS.has(level)) throw new Error(`Unknown log level "${level}" (LOG_LEVEL: ${[...LEVELS].join(", ")})`);
  // Never a header or a body: the request line names what it logs field by field
  // (request_log.ts); the redaction is a second fence should anyone log a request object.
  const settings = { level, base: { service: "threadline" }, redact: ["req.headers.authorization", "headers.authorization", "authorization"] };
  return options.destination === undefined ? pino(settings) : pino(settings, pino.destination(options.destination));
}
