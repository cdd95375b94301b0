/**
 * What an operation flagged `download` (core/trpc.ts `EndpointMeta.download`) answers: a file
 * name, its header row and its records, produced lazily so the adapter can stream a file of
 * any length with flat memory (docs/areas.md "Datasets": the export is CSV, streamed with a CSV library). Core
 * makes the records; the encoding (a CSV library) and the streaming live in the adapters, so
 * core stays free of `node:*`.
 */
import { z } from "zod";

/** One cell: text, a number, a boolean, or empty. */
export type FileCell = string | number | boolean | null;

/** A file an operation answers. */
export interface FileDownload {
  /** The file name the `Content-Disposition` header carries (ASCII, no quotes). */
  filename: string;
  /** The header row. */
  columns: string[];
  /** The records, one array of cells per row in `columns` order; read once, on demand. */
  records: () => AsyncIterable<FileCell[]>;
}

/**
 * The output schema of a download procedure. The records are a function, so the JSON
 * surfaces (tRPC) answer only `filename` and `columns`; REST streams the file.
 */
export const fileDownload = z.object({
  filename: z.string(),
  columns: z.array(z.string()),
  records: z.unknown().refine((value) => typeof value === "function", "must be a record source"),
});
