/**
 * Analytics: followers and impressions per day as charts, the top posts, and the best times to
 * post by weekday and hour (`GET /v1/posts/best-times`).
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { api } from "../api.ts";
import { DayChart } from "../day_chart.tsx";
import { count, dateTime } from "../format.ts";
import { QueryState } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const RANGES = [7, 30, 90] as const;

export default function Analytics() {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  return (
    <>
      <h1>Analytics</h1>
      <fieldset className="range">
        <legend>Range</legend>
        {RANGES.map((range) => (
          <label key={range} className="check">
            <input type="radio" name="range" checked={days === range} onChange={() => setDays(range)} /> {`${range} days`}
          </label>
        ))}
      </fieldset>
      <Daily days={days} />
      <BestTimes />
      <TopPosts days={days} />
    </>
  );
}

function Daily({ days }: { days: number }) {
  const since = useMemo(
    () => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - (days - 1))).toISOString(),
    [days],
  );
  const analytics = useQuery({ queryKey: ["analytics", days], queryFn: () => api.analytics.posts.query({ since }) });
  return (
    <section className="card" aria-labelledby="daily-title">
      <h2 id="daily-title">Followers and impressions</h2>
      <QueryState query={analytics}>
        {({ data }) => (
          <>
            <dl>
              <dt>Followers</dt>
              <dd>
                {data.followers.end === null ? "not recorded yet" : count(data.followers.end)}
                {data.followers.change !== null && ` (${data.followers.change >= 0 ? "+" : ""}${count(data.followers.change)})`}
              </dd>
              <dt>Impressions</dt>
              <dd>{count(data.totals.impressions)}</dd>
              <dt>Posts</dt>
              <dd>{count(data.totals.posts)}</dd>
            </dl>
            <div className="grid">
              <DayChart title="Followers" dates={data.days.map((day) => day.date)} values={data.days.map((day) => day.followers)} />
              <DayChart title="Impressions" dates={data.days.map((day) => day.date)} values={data.days.map((day) => day.impressions)} />
            </div>
          </>
        )}
      </QueryState>
    </section>
  );
}

function BestTimes() {
  const best = useQuery({ queryKey: ["best-times"], queryFn: () => api.analytics.bestTimes.query({}) });
  return (
    <section className="card" aria-labelledby="best-title">
      <h2 id="best-title">Best times to post</h2>
      <QueryState query={best}>
        {({ data }) =>
          data.best.length === 0 ? (
            <p>{`Not enough posts yet: ${count(data.posts)} in the last 90 days; a time needs 3 posts to be recommended.`}</p>
          ) : (
            <>
              <p className="muted">{`From ${count(data.posts)} posts of the last 90 days, in ${data.timezone}. Score 1 is the account's average impressions per post.`}</p>
              <ol className="best">
                {data.best.map((slot) => (
                  <li key={`${slot.weekday}-${slot.hour}`}>
                    <strong>{`${WEEKDAYS[slot.weekday - 1]} ${String(slot.hour).padStart(2, "0")}:00`}</strong>
                    {` score ${slot.score}, ${count(slot.avg_impressions)} impressions per post over ${slot.posts} posts`}
                  </li>
                ))}
              </ol>
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function TopPosts({ days }: { days: number }) {
  const since = useMemo(() => new Date(Date.now() - days * 86_400_000).toISOString(), [days]);
  const posts = useQuery({ queryKey: ["top-posts", days], queryFn: () => api.content.listPosts.query({ sort: "impressions", since, limit: 10 }) });
  return (
    <section className="card" aria-labelledby="top-title">
      <h2 id="top-title">Top posts</h2>
      <QueryTable query={posts} empty="No post in this range." columns={["Post", "Impressions", "Likes", "Posted"]}>
        {(post) => (
          <tr key={post.id}>
            <td className="wrap">
              <a href={post.url} target="_blank" rel="noreferrer">
                {post.text.slice(0, 100) || "(media)"}
              </a>
            </td>
            <td>{count(post.metrics.impressions)}</td>
            <td>{count(post.metrics.likes)}</td>
            <td>{dateTime(post.posted_at)}</td>
          </tr>
        )}
      </QueryTable>
    </section>
  );
}
