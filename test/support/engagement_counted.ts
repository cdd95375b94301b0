/**
 * Asserts through the REST surface that a served demo world has its engagement counted
 * (docs/areas.md "Audience"): repliers and reposters listed, `sort=replies` ranks someone,
 * and every replier of the newest received replies has at least those replies counted.
 * Polls first with a deadline: the server's own jobs sync the same accounts beside the demo.
 */
import assert from "node:assert/strict";
import { pollUntil } from "./child_node.ts";

/** GETs `path` under `baseUrl` (the demo's `/v1` base) with `key`; answers status and JSON body. */
async function get(baseUrl: string, path: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

/** Fails unless the demo main account's repliers, reposters and contacts' counts show its engagement within `timeoutMs`. */
export async function assertEngagementCounted(baseUrl: string, key: string, timeoutMs = 30_000): Promise<void> {
  const repliers = await pollUntil(
    "repliers counted from the received replies",
    async () => {
      const answer = await get(baseUrl, "/audience/repliers?limit=5", key);
      return answer.status === 200 && answer.body.data.length > 0 ? answer.body : undefined;
    },
    { timeoutMs, intervalMs: 500 },
  );
  assert.equal(repliers.meta.status, "complete");
  assert.ok(repliers.meta.synced_count > 0, JSON.stringify(repliers.meta));
  const reposters = await get(baseUrl, "/audience/reposters?limit=5", key);
  assert.ok(reposters.body.data.length > 0, `no reposters counted: ${JSON.stringify(reposters.body)}`);
  const top = await get(baseUrl, "/contacts?sort=replies&limit=1", key);
  assert.equal(top.status, 200, JSON.stringify(top.body));
  assert.ok(top.body.data[0]?.replies_count > 0, `sort=replies lists nobody: ${JSON.stringify(top.body)}`);

  const received = await get(baseUrl, "/replies/received?limit=20", key);
  assert.equal(received.status, 200, JSON.stringify(received.body));
  const perReplier = new Map<string, number>();
  for (const reply of received.body.data) perReplier.set(reply.author.x_user_id, (perReplier.get(reply.author.x_user_id) ?? 0) + 1);
  assert.ok(perReplier.size > 0, "the demo main account has received replies");
  for (const [id, replies] of perReplier) {
    const contact = await get(baseUrl, `/contacts/${id}`, key);
    assert.equal(contact.status, 200, `replier ${id}: ${JSON.stringify(contact.body)}`);
    const { replies_count, reposts_count, engaged_count } = contact.body.data;
    assert.ok(replies_count >= replies, `replier ${id} has ${replies} replies listed, ${replies_count} counted`);
    assert.equal(engaged_count, replies_count + reposts_count);
  }
}
