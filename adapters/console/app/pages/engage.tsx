/**
 * Engage: the account's feeds and mentions, each post with a reply draft beside it (the AI drafts,
 * the user posts; nothing is sent from here).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api.ts";
import { count, dateTime } from "../format.ts";
import { Failure, QueryState } from "../query_state.tsx";

type FeedPost = Awaited<ReturnType<typeof api.engage.feedPosts.query>>["data"][number];
type Mention = Awaited<ReturnType<typeof api.engage.mentions.query>>["data"][number];

export default function Engage() {
  const feeds = useQuery({ queryKey: ["feeds"], queryFn: () => api.engage.listFeeds.query({}) });
  const [source, setSource] = useState<number | "mentions">("mentions");
  return (
    <>
      <h1>Engage</h1>
      <QueryState query={feeds}>
        {({ data }) => (
          <div className="inline">
            <label htmlFor="engage-source">Show</label>
            <select
              id="engage-source"
              value={String(source)}
              onChange={(event) => setSource(event.target.value === "mentions" ? "mentions" : Number(event.target.value))}
            >
              <option value="mentions">Mentions</option>
              {data.map((feed) => (
                <option key={feed.id} value={feed.id}>{`Feed: ${feed.name}`}</option>
              ))}
            </select>
          </div>
        )}
      </QueryState>
      {source === "mentions" ? <Mentions /> : <FeedPosts feedId={source} />}
    </>
  );
}

function Mentions() {
  const mentions = useQuery({ queryKey: ["mentions"], queryFn: () => api.engage.mentions.query({}) });
  return (
    <section className="card" aria-labelledby="engage-title">
      <h2 id="engage-title">Mentions</h2>
      <QueryState query={mentions}>{({ data }) => (data.length === 0 ? <p>No mention to answer.</p> : <PostList posts={data} />)}</QueryState>
    </section>
  );
}

function FeedPosts({ feedId }: { feedId: number }) {
  const posts = useQuery({ queryKey: ["feed-posts", feedId], queryFn: () => api.engage.feedPosts.query({ id: feedId, limit: 20 }) });
  return (
    <section className="card" aria-labelledby="engage-title">
      <h2 id="engage-title">Feed posts</h2>
      <QueryState query={posts}>{({ data }) => (data.length === 0 ? <p>Nothing in this feed right now.</p> : <PostList posts={data} />)}</QueryState>
    </section>
  );
}

function PostList({ posts }: { posts: (FeedPost | Mention)[] }) {
  return (
    <ul className="plain engage">
      {posts.map((post) => (
        <li key={post.id} className="engage-post">
          <div>
            <p>
              <strong>{post.author ? `@${post.author.username}` : "Someone"}</strong>{" "}
              <span className="muted">{`${post.author?.name ?? ""} · ${dateTime(post.created_at)}`}</span>
            </p>
            <p className="wrap">{post.text}</p>
            <p className="muted">
              {`${count(post.metrics.likes)} likes · ${count(post.metrics.replies)} replies`}
              {post.replied && " · you replied"} ·{" "}
              <a href={post.url} target="_blank" rel="noreferrer">
                Open on X
              </a>
            </p>
          </div>
          <ReplyDraft postId={post.id} />
        </li>
      ))}
    </ul>
  );
}

function ReplyDraft({ postId }: { postId: string }) {
  const [tone, setTone] = useState<"engaging" | "concise" | "humorous">("engaging");
  const draft = useMutation({ mutationFn: () => api.engage.replyDraft.mutate({ post_id: postId, tone }) });
  return (
    <div className="reply-draft">
      <label htmlFor={`tone-${postId}`}>Tone</label>
      <select id={`tone-${postId}`} value={tone} onChange={(event) => setTone(event.target.value as typeof tone)}>
        <option value="engaging">Engaging</option>
        <option value="concise">Concise</option>
        <option value="humorous">Humorous</option>
      </select>{" "}
      <button type="button" onClick={() => draft.mutate()} disabled={draft.isPending}>
        Draft a reply
      </button>
      {draft.data && (
        <p role="status" className="draft">
          {draft.data.data.text}
        </p>
      )}
      <Failure error={draft.error} />
    </div>
  );
}
