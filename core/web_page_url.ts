/**
 * The address of a web page a user names (a product page, a page to draw an ICP from): an
 * http(s) URL, or a bare domain with an optional path (`superx.so`, `example.com/pricing`),
 * which people and the real service's CLI send meaning `https://` (its help's own example is
 * `--url superx.so`). Anything else is `400 invalid_parameter`; the outbound guard decides
 * later what may actually be read.
 */
import { z } from "zod";

/** A host name with at least one dot, an optional port, then nothing or a path, query or fragment. */
const BARE_DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?::\d{1,5})?(?:[/?#].*)?$/i;

/** `value` as an absolute http(s) URL (a bare domain gets `https://`), or undefined when it is neither. */
export function webPageHref(value: string): string | undefined {
  const text = value.trim();
  const absolute = BARE_DOMAIN.test(text) ? `https://${text}` : text;
  try {
    const url = new URL(absolute);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A page address of at most `max` characters, answered as its absolute URL. */
export function webPageUrl(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((value, ctx) => {
      const href = webPageHref(value);
      if (href === undefined) {
        ctx.addIssue({ code: "custom", message: "must be an http(s) URL or a domain such as example.com" });
        return z.NEVER;
      }
      return href;
    });
}
