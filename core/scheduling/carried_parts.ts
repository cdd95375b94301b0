/**
 * Parts already on X from an earlier publication of the same post (issue: a thread that
 * failed part-way and is scheduled again must not post its first parts twice; X would also
 * refuse them as duplicates). Each earlier version's parts are recorded with what they said
 * (`publish_parts.content`); the new publication continues after the longest run of parts,
 * from the first, that went out and still say the same. A part whose outcome an earlier
 * attempt never learned is looked up on the network by that attempt's token first.
 */
import type { SocialNetwork } from "../network/social_network.ts";
import type { EarlierPartRow } from "./publish_queries.ts";
import type { StoredPart } from "./scheduled_posts_queries.ts";

/** The network ids of the leading parts already published, by part index (a prefix from 0). */
export async function carriedParts(
  network: Pick<SocialNetwork, "findPublished">,
  post: { account_id: string; parts: readonly StoredPart[]; earlier: readonly EarlierPartRow[] },
): Promise<string[]> {
  const byIndex = new Map(post.earlier.map((row) => [row.part_index, row]));
  const ids: string[] = [];
  for (let index = 0; index < post.parts.length; index++) {
    const row = byIndex.get(index);
    if (!row?.content || !sameContent(row.content, post.parts[index])) break;
    const id = row.state === "published" ? row.x_post_id : (await network.findPublished({ authorId: post.account_id, token: row.token }))?.id;
    if (!id) break;
    ids.push(id);
  }
  return ids;
}

/** Whether two versions of a part publish the same post: the text and the media, in order. */
function sameContent(a: StoredPart, b: StoredPart): boolean {
  const keys = (part: StoredPart) => (part.media ?? []).map((item) => item.object_key).join("\n");
  return a.text === b.text && keys(a) === keys(b);
}
