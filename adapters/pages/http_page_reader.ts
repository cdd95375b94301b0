/**
 * Reads pages over HTTP(S) with fetch: the address guard on the URL and on every
 * redirect (followed by hand, at most 3), a time bound, a size bound, HTML only.
 */
import { type PageReader, PageReadError, UrlNotAllowedError } from "../../core/pages/page_reader.ts";
import { assertPublicUrl } from "./address_guard.ts";
import { htmlContent } from "./html_content.ts";

const MAX_REDIRECTS = 3;
const MAX_BYTES = 2 * 1024 * 1024;

/** An HTTP page reader; `allowPrivate` lets tests read a loopback server. */
export function createHttpPageReader(options: { timeoutMs?: number; allowPrivate?: boolean; fetch?: typeof fetch } = {}): PageReader {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    async read(address, readOptions = {}) {
      let url = parse(address);
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(readOptions.signal ? [readOptions.signal] : [])]);
      for (let hop = 0; ; hop++) {
        await assertPublicUrl(url, { allowPrivate: options.allowPrivate });
        let response: Response;
        try {
          response = await send(url, {
            redirect: "manual",
            signal,
            headers: { Accept: "text/html,application/xhtml+xml", "User-Agent": "ThreadlineBot/1.0 (+product page reader)" },
          });
        } catch (cause) {
          throw new PageReadError(signal.aborted ? `Reading "${url.href}" took longer than ${timeoutMs} ms` : `Cannot reach "${url.host}"`, { cause });
        }
        if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
          if (hop >= MAX_REDIRECTS) throw new PageReadError(`"${address}" redirected more than ${MAX_REDIRECTS} times`);
          url = new URL(response.headers.get("location")!, url);
          continue;
        }
        if (!response.ok) throw new PageReadError(`"${url.href}" answered HTTP ${response.status}`);
        if (!/html/i.test(response.headers.get("content-type") ?? "")) throw new PageReadError(`"${url.href}" is not an HTML page`);
        return htmlContent(url.href, await boundedText(response));
      }
    },
  };
}

function parse(address: string): URL {
  try {
    return new URL(address);
  } catch {
    throw new UrlNotAllowedError(`"${address}" is not a URL`);
  }
}

async function boundedText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
