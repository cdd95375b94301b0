/**
 * The same cases twice: in process through `app.fetch(new Request(...))` and against the
 * harness's real listening server (STYLE.md, after h3's `describeMatrix` in its
 * `test/_setup.ts`), so a difference between the two (a header the Node adapter drops, a
 * body it buffers) fails a case.
 */
import { describe } from "node:test";
import { type Harness, type Transport, transports } from "./harness.ts";

/** The ways to reach an instance, in the order `transports()` answers them. */
export const TRANSPORT_NAMES = ["in-process", "http"] as const;

/** One side of the matrix, as the cases see it. */
export interface MatrixSide {
  /** 0 in process, 1 over HTTP: cases use it to keep their data apart. */
  index: 0 | 1;
  name: (typeof TRANSPORT_NAMES)[number];
  /** This side's transport to `harness` (read when a case runs, after `before` started it). */
  transport(harness: Harness): Transport;
}

/**
 * Registers the cases of `body` once per transport: inside `describe(title(name))` when a
 * title is given, else as `body` registers them (its own describes and tests, named per side).
 */
export function describeMatrix(body: (side: MatrixSide) => void): void;
export function describeMatrix(title: (name: MatrixSide["name"]) => string, body: (side: MatrixSide) => void): void;
export function describeMatrix(...args: [(side: MatrixSide) => void] | [(name: MatrixSide["name"]) => string, (side: MatrixSide) => void]): void {
  const [title, body] = args.length === 2 ? args : [undefined, args[0]];
  for (const [index, name] of TRANSPORT_NAMES.entries()) {
    const side: MatrixSide = { index: index as 0 | 1, name, transport: (harness) => transports(harness)[index] };
    if (title) describe(title(name), () => body(side));
    else body(side);
  }
}
