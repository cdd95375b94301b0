/**
 * A recent-search query with X's operators, as the simulated network's options: the
 * words, phrases, exclusions and ORs pass as they are (the port's language is X's),
 * `lang:xx` becomes `lang`, `-is:retweet -is:reply -is:quote` together become
 * `originalsOnly`, and `in_reply_to_tweet_id:<id>` asks for a post's replies. Other
 * operators are refused with X's 400, so a client that sends one is caught.
 */
import { FakeParameterError } from "./x_problems.ts";

/** What a query asks: a post's replies, or a search. */
export interface SearchRequest {
  replyTo?: string;
  options: { query: string; lang?: string; originalsOnly?: boolean };
}

const ORIGINALS = ["-is:retweet", "-is:reply", "-is:quote"];
const OTHER_OPERATOR = /(^|[\s(])-?(from|to|conversation_id|is|has|url|retweets_of|lang|in_reply_to_tweet_id|place|context|entity|sample|bio|list):/;

/** Parses the `query` parameter. */
export function searchRequest(raw: string): SearchRequest {
  if (raw.trim() === "" || raw.length > 512) throw new FakeParameterError("query", raw, "The `query` query parameter must hold 1 to 512 characters");
  let rest = ` ${raw} `;
  let lang: string | undefined;
  let replyTo: string | undefined;
  rest = rest.replace(/\slang:([A-Za-z]{2,3})(?=\s)/, (_, code: string) => {
    lang = code.toLowerCase();
    return " ";
  });
  rest = rest.replace(/\sin_reply_to_tweet_id:(\d+)(?=\s)/, (_, id: string) => {
    replyTo = id;
    return " ";
  });
  const flags = ORIGINALS.filter((flag) => rest.includes(` ${flag} `));
  for (const flag of flags) rest = rest.replace(` ${flag} `, " ");
  if (flags.length !== 0 && flags.length !== ORIGINALS.length)
    throw new FakeParameterError("query", raw, "This fake X server takes -is:retweet -is:reply -is:quote only together");
  if (OTHER_OPERATOR.test(rest)) throw new FakeParameterError("query", raw, `This fake X server does not serve the operators of "${raw}"`);
  let query = rest.trim();
  const grouped = /^\((.*)\)$/.exec(query);
  if (grouped) query = grouped[1].trim();
  if (replyTo !== undefined && query !== "") throw new FakeParameterError("query", raw, "This fake X server takes in_reply_to_tweet_id: alone");
  return { replyTo, options: { query, lang, originalsOnly: flags.length > 0 || undefined } };
}
