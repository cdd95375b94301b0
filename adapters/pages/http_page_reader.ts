/**
 * Reads pages through the guarded outbound client (adapters/outbound/guarded_get.ts):
 * https only unless the operator allowed the host, public addresses on every hop, at most
 * 3 redirects, a time bound, the first 2MB, HTML only.
 */
import type { Outbound } from "../../core/outbound/outbound.ts";
import { FetchFailedError } from "../../core/outbound/outbound.ts";
import { type PageReader, PageReadError } from "../../core/ports/page_reader.ts";
import { htmlContent } from "./html_content.ts";

const MAX_BYTES = 2 * 1024 * 1024;

/** A page reader over `outbound`; a refused URL stays `UrlNotAllowedError`, a failed read becomes `PageReadError`. */
export function createHttpPageReader(outbound: Outbound): PageReader {
  return {
    async read(address, readOptions = {}) {
      const response = await outbound
        .get(address, { maxBytes: MAX_BYTES, truncate: true, accept: "text/html,application/xhtml+xml", signal: readOptions.signal })
        .catch((error: unknown) => {
          throw error instanceof FetchFailedError ? new PageReadError(error.message, { cause: error }) : error;
        });
      if (response.status < 200 || response.status > 299) throw new PageReadError(`"${response.url}" answered HTTP ${response.status}`);
      if (!/html/.test(response.contentType)) throw new PageReadError(`"${response.url}" is not an HTML page`);
      return htmlContent(response.url, new TextDecoder().decode(response.body));
    },
  };
}
