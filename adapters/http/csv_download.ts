/**
 * Files answered by operations flagged `download: "text/csv"` (core/file_download.ts), encoded
 * with csv-stringify (RFC 4180 quoting: a cell with a comma, a quote or a line break is
 * quoted, quotes doubled; formulas neutralised). REST streams the file record by record,
 * pulling the next batch of rows only as the client reads (memory stays flat with the row
 * count); MCP answers the same text bounded in size.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream";
import { type Options, stringify } from "csv-stringify";
import { stringify as stringifySync } from "csv-stringify/sync";
import type { FileCell, FileDownload } from "../../core/file_download.ts";

/**
 * How cells are written: booleans as `true`/`false` (csv-stringify's default writes `1` and an
 * empty cell); a text cell that a spreadsheet would run as a formula (it starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return; collected names, bios and posts are anyone's text) is
 * written with a leading `'` (csv-stringify's `escape_formulas`, OWASP's CSV injection advice).
 * Numbers are written as they are.
 */
const CSV_OPTIONS: Options = { cast: { boolean: (value) => (value ? "true" : "false") }, escape_formulas: true };

/**
 * The streamed CSV answer: `Content-Type: text/csv; charset=utf-8` and `Content-Disposition:
 * attachment; filename="..."` (the quoted form: the real client matches `filename="..."`,
 * supplement section 1), beside the headers the request path collected (rate limits).
 */
export function csvResponse(status: number, download: FileDownload, headers: Headers): Response {
  const encoder = stringify({ ...CSV_OPTIONS, header: true, columns: download.columns });
  // A failure while reading rows ends the stream with an error: the client sees a cut
  // connection, never a file that looks complete.
  pipeline(Readable.from(download.records()), encoder, () => {});
  headers.set("Content-Type", "text/csv; charset=utf-8");
  headers.set("Content-Disposition", `attachment; filename="${download.filename}"`);
  return new Response(Readable.toWeb(encoder) as ReadableStream<Uint8Array>, { status, headers });
}

/**
 * The CSV text of `download` up to `maxChars` characters (whole records only), and how many
 * records were left out (MCP: a tool result is one text, not a stream).
 */
export async function csvText(download: FileDownload, maxChars: number): Promise<{ text: string; records: number; truncated: boolean }> {
  let text = stringifySync([download.columns], CSV_OPTIONS);
  let records = 0;
  for await (const record of download.records()) {
    const line = stringifySync([record as FileCell[]], CSV_OPTIONS);
    if (text.length + line.length > maxChars) return { text, records, truncated: true };
    text += line;
    records += 1;
  }
  return { text, records, truncated: false };
}
