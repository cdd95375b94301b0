/**
 * Developers: API keys, webhooks (create, send a test, the delivery log with retry), the live
 * event feed and the API reference.
 * The signing secret a new webhook answers is shown once, as the API answers it once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api.ts";
import { dateTime } from "../format.ts";
import { Failure } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";
import { ApiKeys } from "./api_keys.tsx";
import { EventFeed } from "./event_feed.tsx";

export default function Developers() {
  const [selected, setSelected] = useState<number>();
  return (
    <>
      <h1>Developers</h1>
      <p>
        The REST reference is at <a href="/v1/docs">/v1/docs</a> (OpenAPI: <a href="/v1/docs?format=openapi">/v1/docs?format=openapi</a>); agents connect to the
        MCP server at <code>/v1/mcp</code>.
      </p>
      <ApiKeys />
      <Webhooks selected={selected} onSelect={setSelected} />
      {selected && <Deliveries webhookId={selected} />}
      <EventFeed />
    </>
  );
}

function Webhooks({ selected, onSelect }: { selected: number | undefined; onSelect: (id: number) => void }) {
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: ["webhooks"], queryFn: () => api.webhooks.list.query({ limit: 100 }) });
  const [url, setUrl] = useState("");
  const create = useMutation({
    mutationFn: (target: string) => api.webhooks.create.mutate({ url: target }),
    onSuccess: () => {
      setUrl("");
      queryClient.invalidateQueries({ queryKey: ["webhooks"] });
    },
  });
  const test = useMutation({
    mutationFn: (id: number) => api.webhooks.test.mutate({ id }),
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: ["deliveries", id] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(url.trim());
  };
  const failure = create.error ?? test.error;
  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <QueryTable query={webhooks} empty="No webhook yet." columns={["URL", "Events", "State", { hidden: "Actions" }]}>
        {(webhook) => (
          <tr key={webhook.id} aria-selected={webhook.id === selected}>
            <td className="wrap">{webhook.url}</td>
            <td>{webhook.events.join(", ")}</td>
            <td>{webhook.enabled ? "enabled" : "disabled"}</td>
            <td className="actions">
              <button type="button" onClick={() => onSelect(webhook.id)}>
                Deliveries
              </button>
              <button type="button" onClick={() => test.mutate(webhook.id)} disabled={test.isPending}>
                Send test
              </button>
            </td>
          </tr>
        )}
      </QueryTable>
      <form onSubmit={submit} className="inline">
        <label htmlFor="webhook-url">New webhook URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          placeholder="https://example.com/hooks/threadline"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <button type="submit" disabled={create.isPending}>
          Create webhook
        </button>
      </form>
      {create.data && (
        <p role="status" className="ok">
          Signing secret (shown once): <code>{create.data.data.secret}</code>
        </p>
      )}
      <Failure error={failure} />
    </section>
  );
}

function Deliveries({ webhookId }: { webhookId: number }) {
  const queryClient = useQueryClient();
  // Refreshed while open: deliveries are made by the job runner after the event.
  const deliveries = useQuery({
    queryKey: ["deliveries", webhookId],
    queryFn: () => api.webhooks.deliveries.query({ id: webhookId, limit: 50 }),
    refetchInterval: 2000,
  });
  const retry = useMutation({
    mutationFn: (deliveryId: number) => api.webhooks.retryDelivery.mutate({ id: webhookId, delivery_id: deliveryId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["deliveries", webhookId] }),
  });
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <QueryTable query={deliveries} empty="No delivery yet." columns={["Event", "Status", "Attempt", "Created", { hidden: "Actions" }]}>
        {(delivery) => (
          <tr key={delivery.id} className="delivery">
            <td>{delivery.event_type}</td>
            <td>
              {delivery.status}
              {delivery.response_code !== null && ` (HTTP ${delivery.response_code})`}
            </td>
            <td>{delivery.attempt}</td>
            <td>{dateTime(delivery.created_at)}</td>
            <td>
              {delivery.status === "failed" && (
                <button type="button" onClick={() => retry.mutate(delivery.id)} disabled={retry.isPending}>
                  Retry
                </button>
              )}
            </td>
          </tr>
        )}
      </QueryTable>
      <Failure error={retry.error} />
    </section>
  );
}
