/**
 * Home: credits and plan limits, X usage against the budget, each account's connection with
 * connect and reconnect, and the posts that failed lately with their reasons.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api.ts";
import { count, dateTime, usd } from "../format.ts";
import { Failure, QueryState } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";

export function Home() {
  return (
    <>
      <h1>Home</h1>
      <div className="grid">
        <PlanCard />
        <UsageCard />
      </div>
      <AccountsCard />
      <FailuresCard />
    </>
  );
}

function PlanCard() {
  const me = useQuery({ queryKey: ["me"], queryFn: () => api.identity.me.query() });
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan and credits</h2>
      <QueryState query={me}>
        {({ data }) => (
          <dl>
            <dt>Plan</dt>
            <dd>{data.plan.label}</dd>
            <dt>AI credits</dt>
            <dd>
              {data.credits
                ? `${count(data.credits.remaining)} left of ${count(data.credits.pool)} (renews ${dateTime(data.credits.period_end)})`
                : "unavailable right now"}
            </dd>
            <dt>Scheduled posts this month</dt>
            <dd>{`${count(data.post_quota.used)} of ${count(data.post_quota.limit)}`}</dd>
            <dt>Requests per minute</dt>
            <dd>{`${count(data.plan.request_limits.reads.minute)} reads, ${count(data.plan.request_limits.writes.minute)} writes`}</dd>
          </dl>
        )}
      </QueryState>
    </section>
  );
}

function UsageCard() {
  const usage = useQuery({ queryKey: ["x-usage"], queryFn: () => api.x.usage.query({}) });
  return (
    <section className="card" aria-labelledby="usage-title">
      <h2 id="usage-title">X usage this month</h2>
      <QueryState query={usage}>
        {({ data }) => (
          <>
            <p className="figure">{usd(data.spend_usd)}</p>
            <p>{data.budget_usd === null ? "No monthly budget set." : `of ${usd(data.budget_usd)} budget, ${usd(data.left_usd ?? 0)} left`}</p>
            {data.budget_usd !== null && <meter min={0} max={data.budget_usd} value={data.spend_usd} aria-label="Budget spent" />}
            <p className="muted">{`${count(data.accounts.reduce((sum, account) => sum + account.calls, 0))} calls to X in ${data.month}`}</p>
          </>
        )}
      </QueryState>
    </section>
  );
}

function AccountsCard() {
  const accounts = useQuery({ queryKey: ["accounts"], queryFn: () => api.identity.accounts.query({ limit: 100 }) });
  const connect = useMutation({
    mutationFn: () => api.identity.connect.mutate({}),
    // X's consent screen; X sends the browser back to the server's callback, which connects the account.
    onSuccess: ({ data }) => window.location.assign(data.authorize_url),
  });
  return (
    <section className="card" aria-labelledby="accounts-title">
      <h2 id="accounts-title">Accounts</h2>
      <QueryTable query={accounts} columns={["Account", "X connection", { hidden: "Action" }]}>
        {(account) => {
          const connection = account.x_connection;
          const healthy = connection?.status === "connected";
          return (
            <tr key={account.id}>
              <td>
                <strong>@{account.username}</strong> {account.name}
                {account.is_main && <span className="tag">main</span>}
              </td>
              <td>
                {!connection && "not connected"}
                {connection && healthy && <span className="ok">{`connected (${connection.kind})`}</span>}
                {connection && !healthy && <span className="error">{`needs reconnecting: ${connection.reason ?? "X refused the token"}`}</span>}
              </td>
              <td>
                {!account.shared && !healthy && (
                  <button type="button" onClick={() => connect.mutate()} disabled={connect.isPending}>
                    {connection ? "Reconnect" : "Connect"}
                  </button>
                )}
              </td>
            </tr>
          );
        }}
      </QueryTable>
      <p>
        <button type="button" onClick={() => connect.mutate()} disabled={connect.isPending}>
          Connect an X account
        </button>
      </p>
      <Failure error={connect.error} />
    </section>
  );
}

function FailuresCard() {
  const queryClient = useQueryClient();
  const failed = useQuery({ queryKey: ["posts", "error"], queryFn: () => api.scheduledPosts.list.query({ status: "error", limit: 10 }) });
  // A failed post goes out again at the account's next free queue slot.
  const retry = useMutation({
    mutationFn: (id: string) => api.scheduledPosts.update.mutate({ id, status: "scheduled", scheduled_for: "next_slot" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["posts", "error"] }),
  });
  return (
    <section className="card" aria-labelledby="failures-title">
      <h2 id="failures-title">Recent failures</h2>
      <QueryState query={failed}>
        {({ data }) =>
          data.length === 0 ? (
            <p>No post failed.</p>
          ) : (
            <ul className="plain">
              {data.map((post) => (
                <li key={post.id}>
                  <strong>{post.title ?? post.parts[0]?.text.slice(0, 80) ?? `Post ${post.id}`}</strong>
                  <span className="muted"> {dateTime(post.scheduled_for)}</span>
                  <p className="error">{post.error ?? "no reason recorded"}</p>
                  <button type="button" onClick={() => retry.mutate(post.id)} disabled={retry.isPending}>
                    Retry at the next queue slot
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <Failure error={retry.error} />
    </section>
  );
}
