/**
 * Publishes a thread one part at a time so that a retry resumes instead of doubling:
 * before publishing part `i` it asks the network whether a post with that part's token
 * already landed (a crash or timeout may have hidden the answer), and publishes only
 * what is missing. Adapters implement `publishThread` with this.
 */
import type { NetworkPost } from "./network_records.ts";
import type { PublishThreadInput, SocialNetwork } from "./social_network.ts";
import { NetworkRejectedError } from "./network_errors.ts";

/** Publishes `input.parts` in order on `network`, reusing parts already published under the same token. */
export async function publishThreadParts(network: Pick<SocialNetwork, "publishPost" | "findPublished">, input: PublishThreadInput): Promise<NetworkPost[]> {
  if (input.parts.length === 0) throw new NetworkRejectedError("invalid", "A thread needs at least one part");
  const posts: NetworkPost[] = [];
  for (const [index, part] of input.parts.entries()) {
    const token = input.token === undefined ? undefined : `${input.token}:${index}`;
    const replyToId = posts.at(-1)?.id ?? input.replyToId;
    const landed = token === undefined ? undefined : await network.findPublished({ authorId: input.authorId, token });
    posts.push(landed ?? (await network.publishPost({ authorId: input.authorId, text: part.text, mediaKeys: part.mediaKeys, replyToId, token })));
  }
  return posts;
}
