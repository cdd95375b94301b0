/**
 * Datasets and outreach: collections with live progress, their rows (research briefs and hooks
 * included), the CSV download and outreach drafts; DM campaigns with their progress per status,
 * and cancel.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api.ts";
import { downloadWithKey } from "../download.ts";
import { count, dateTime } from "../format.ts";
import { Failure } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";

/** How often a list with work in progress is read again, in ms. */
const LIVE_MS = 2000;

type Dataset = Awaited<ReturnType<typeof api.datasets.list.query>>["data"][number];
const working = (dataset: Dataset) => dataset.status === "collecting";

export default function Datasets() {
  const [open, setOpen] = useState<string>();
  return (
    <>
      <h1>Datasets and outreach</h1>
      <Collections open={open} onOpen={setOpen} />
      {open && <Rows datasetId={open} />}
      <Campaigns />
    </>
  );
}

function Collections({ open, onOpen }: { open: string | undefined; onOpen: (id: string) => void }) {
  const datasets = useQuery({
    queryKey: ["datasets"],
    queryFn: () => api.datasets.list.query({ limit: 50 }),
    // Live while a collection runs.
    refetchInterval: (query) => (query.state.data?.data.some(working) ? LIVE_MS : false),
  });
  return (
    <section className="card" aria-labelledby="datasets-title">
      <h2 id="datasets-title">Datasets</h2>
      <QueryTable
        query={datasets}
        empty="No dataset yet: create one with POST /v1/datasets."
        columns={["Dataset", "Status", "Rows", "Created", { hidden: "Actions" }]}
      >
        {(dataset) => {
          const expected = dataset.expected_total ?? dataset.max_rows;
          return (
            <tr key={dataset.id} className="dataset">
              <td>
                <strong>{dataset.title}</strong> <span className="muted">{dataset.source}</span>
              </td>
              <td>
                {dataset.status}
                {dataset.error && <div className="error">{dataset.error}</div>}
              </td>
              <td>
                {working(dataset) && expected ? (
                  <progress max={expected} value={dataset.rows_collected} aria-label={`${dataset.title}: ${dataset.rows_collected} of ${expected} rows`} />
                ) : null}{" "}
                {count(dataset.row_count)}
              </td>
              <td>{dateTime(dataset.created_at)}</td>
              <td>
                <button type="button" onClick={() => onOpen(dataset.id)} aria-pressed={open === dataset.id}>
                  {`Rows of ${dataset.title}`}
                </button>
              </td>
            </tr>
          );
        }}
      </QueryTable>
    </section>
  );
}

function Rows({ datasetId }: { datasetId: string }) {
  const dataset = useQuery({ queryKey: ["dataset", datasetId], queryFn: () => api.datasets.get.query({ id: datasetId }) });
  const rows = useQuery({ queryKey: ["dataset-rows", datasetId], queryFn: () => api.datasetRows.rows.query({ id: datasetId, limit: 50 }) });
  const download = useMutation({ mutationFn: () => downloadWithKey(`/v1/datasets/${encodeURIComponent(datasetId)}/export?format=csv`, `${datasetId}.csv`) });
  const [format, setFormat] = useState("Hi [first], saw your post about this and wanted to say hello.");
  const drafts = useMutation({ mutationFn: () => api.datasetOutreach.draft.mutate({ id: datasetId, format }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    drafts.mutate();
  };
  const failure = download.error ?? drafts.error;
  return (
    <section className="card" aria-labelledby="rows-title">
      <h2 id="rows-title">{`Rows of ${dataset.data?.data.title ?? datasetId}`}</h2>
      <p className="actions">
        <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
          Download CSV
        </button>
      </p>
      <QueryTable query={rows} empty="No row yet." columns={["#", "Person", "Post", "Brief and hooks", "Message"]}>
        {(row) => (
          <tr key={row.position}>
            <td>{row.position}</td>
            <td>{row.handle ? `@${row.handle} ${row.name ?? ""}` : "—"}</td>
            <td className="wrap">{row.post_text ?? "—"}</td>
            <td className="wrap">
              {row.brief === null ? "—" : typeof row.brief === "string" ? row.brief : row.brief.summary}
              {row.hooks && row.hooks.length > 0 && (
                <ul>
                  {row.hooks.map((hook) => (
                    <li key={hook.post_id}>
                      <a href={hook.post_url} target="_blank" rel="noreferrer">
                        {hook.quote}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className="wrap">{row.message ?? "—"}</td>
          </tr>
        )}
      </QueryTable>
      <form onSubmit={submit} className="inline">
        <label htmlFor="outreach-format">Outreach message template ([name], [first], [handle] are filled at send time)</label>
        <input id="outreach-format" type="text" required minLength={10} maxLength={1000} value={format} onChange={(event) => setFormat(event.target.value)} />
        <button type="submit" disabled={drafts.isPending}>
          Draft outreach
        </button>
      </form>
      {drafts.data && (
        <div role="status" className="ok">
          <p>{`Drafted ${drafts.data.data.drafted} of ${drafts.data.data.total} messages.`}</p>
          <ul>
            {drafts.data.data.sample_messages.map((sample) => (
              <li key={`${sample.handle}:${sample.message}`}>{sample.handle ? `@${sample.handle}: ${sample.message}` : sample.message}</li>
            ))}
          </ul>
        </div>
      )}
      <Failure error={failure} />
    </section>
  );
}

function Campaigns() {
  const queryClient = useQueryClient();
  const campaigns = useQuery({
    queryKey: ["dm-campaigns"],
    queryFn: () => api.dm.listCampaigns.query({ limit: 20 }),
    refetchInterval: (query) => (query.state.data?.data.some((campaign) => campaign.counts.pending + campaign.counts.sending > 0) ? LIVE_MS : false),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => api.dm.cancelCampaign.mutate({ id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["dm-campaigns"] }),
  });
  return (
    <section className="card" aria-labelledby="campaigns-title">
      <h2 id="campaigns-title">DM campaigns</h2>
      <QueryTable query={campaigns} empty="No campaign yet." columns={["Campaign", "Sent", "Waiting", "Failed", "Skipped", "Progress", { hidden: "Actions" }]}>
        {(campaign) => (
          <tr key={campaign.id} className="campaign">
            <td>{`#${campaign.id} (${campaign.source === "auto_dm" ? "auto DM" : "API"}) ${dateTime(campaign.created_at)}`}</td>
            <td>{campaign.counts.sent}</td>
            <td>{campaign.counts.pending + campaign.counts.sending}</td>
            <td>{campaign.counts.failed}</td>
            <td>{campaign.counts.skipped}</td>
            <td>
              <progress
                max={Math.max(1, campaign.counts.total)}
                value={campaign.counts.total - campaign.counts.pending - campaign.counts.sending}
                aria-label={`Campaign ${campaign.id}: ${campaign.counts.total - campaign.counts.pending - campaign.counts.sending} of ${campaign.counts.total} settled`}
              />
            </td>
            <td>
              {campaign.counts.pending > 0 && (
                <button type="button" className="danger" onClick={() => cancel.mutate(campaign.id)} disabled={cancel.isPending}>
                  {`Cancel campaign ${campaign.id}`}
                </button>
              )}
            </td>
          </tr>
        )}
      </QueryTable>
      <Failure error={cancel.error} />
    </section>
  );
}
