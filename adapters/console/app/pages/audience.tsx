/**
 * Audience and leads: contacts with search, sort and notes; contact lists and their members;
 * lead agents and the lead inbox, where a lead is marked fit or not fit.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api.ts";
import { count, dateTime } from "../format.ts";
import { Failure, QueryState } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";

export default function Audience() {
  return (
    <>
      <h1>Audience</h1>
      <Contacts />
      <Lists />
      <Leads />
    </>
  );
}

function Contacts() {
  const [q, setQ] = useState("");
  const [sort, setSort] = useState<"engagement" | "replies" | "reposts">("engagement");
  const [open, setOpen] = useState<string>();
  const search = q.trim() || undefined;
  const contacts = useQuery({ queryKey: ["contacts", sort, search], queryFn: () => api.contacts.list.query({ sort, q: search, limit: 50 }) });
  return (
    <section className="card" aria-labelledby="contacts-title">
      <h2 id="contacts-title">Contacts</h2>
      <div className="inline">
        <label htmlFor="contact-search">Search by handle or name</label>
        <input id="contact-search" type="search" value={q} onChange={(event) => setQ(event.target.value)} />
        <label htmlFor="contact-sort">Sort</label>
        <select id="contact-sort" value={sort} onChange={(event) => setSort(event.target.value as typeof sort)}>
          <option value="engagement">Most engaged</option>
          <option value="replies">Most replies</option>
          <option value="reposts">Most reposts</option>
        </select>
      </div>
      <QueryTable query={contacts} empty="No contact matches." columns={["Person", "Followers", "Replies", "Reposts", "Last engaged", { hidden: "Notes" }]}>
        {(contact) => (
          <tr key={contact.id}>
            <td>
              <strong>@{contact.username}</strong> {contact.name}
            </td>
            <td>{count(contact.followers_count)}</td>
            <td>{contact.replies_count}</td>
            <td>{contact.reposts_count}</td>
            <td>{dateTime(contact.last_engaged_at)}</td>
            <td>
              <button type="button" onClick={() => setOpen(open === contact.id ? undefined : contact.id)} aria-expanded={open === contact.id}>
                {`Notes on @${contact.username}`}
              </button>
            </td>
          </tr>
        )}
      </QueryTable>
      {open && <Notes contactId={open} />}
    </section>
  );
}

function Notes({ contactId }: { contactId: string }) {
  const queryClient = useQueryClient();
  const notes = useQuery({ queryKey: ["notes", contactId], queryFn: () => api.contacts.notes.query({ id: contactId, limit: 50 }) });
  const [body, setBody] = useState("");
  const add = useMutation({
    mutationFn: () => api.contacts.addNote.mutate({ id: contactId, body: body.trim() }),
    onSuccess: () => {
      setBody("");
      queryClient.invalidateQueries({ queryKey: ["notes", contactId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <section className="notes" aria-label="Notes">
      <QueryState query={notes}>
        {({ data }) =>
          data.length === 0 ? (
            <p>No note yet.</p>
          ) : (
            <ul className="plain">
              {data.map((note) => (
                <li key={note.id} className="note">
                  <p>{note.body}</p>
                  <p className="muted">{dateTime(note.created_at)}</p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <form onSubmit={submit} className="inline">
        <label htmlFor="note-body">New note</label>
        <input id="note-body" type="text" required maxLength={5000} value={body} onChange={(event) => setBody(event.target.value)} />
        <button type="submit" disabled={add.isPending || body.trim() === ""}>
          Add note
        </button>
      </form>
      <Failure error={add.error} />
    </section>
  );
}

function Lists() {
  const lists = useQuery({ queryKey: ["contact-lists"], queryFn: () => api.contactLists.list.query({ limit: 100 }) });
  const [open, setOpen] = useState<number>();
  return (
    <section className="card" aria-labelledby="lists-title">
      <h2 id="lists-title">Contact lists</h2>
      <QueryState query={lists}>
        {({ data }) => (
          <ul className="plain lists">
            {data.map((list) => (
              <li key={list.id}>
                <button type="button" onClick={() => setOpen(open === list.id ? undefined : list.id)} aria-expanded={open === list.id}>
                  {`${list.name} (${count(list.member_count)})`}
                </button>
                {list.is_system && <span className="tag">system</span>}
                {open === list.id && <Members listId={list.id} />}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function Members({ listId }: { listId: number }) {
  const members = useQuery({ queryKey: ["members", listId], queryFn: () => api.contactLists.members.query({ id: listId, limit: 50 }) });
  return (
    <QueryState query={members}>
      {({ data }) =>
        data.length === 0 ? (
          <p>No member.</p>
        ) : (
          <ul className="members">
            {data.map((member) => (
              <li key={member.id}>{`@${member.username} ${member.name} · ${count(member.followers_count)} followers`}</li>
            ))}
          </ul>
        )
      }
    </QueryState>
  );
}

function Leads() {
  const queryClient = useQueryClient();
  const agents = useQuery({ queryKey: ["agents"], queryFn: () => api.signals.listAgents.query({ limit: 100 }) });
  // New leads arrive as the agents run: each `lead.found` event reads the inbox again (live_events.tsx).
  const leads = useQuery({ queryKey: ["leads"], queryFn: () => api.signals.listLeads.query({ limit: 50 }) });
  const agentName = new Map((agents.data?.data ?? []).map((agent) => [agent.id, agent.name]));
  const feedback = useMutation({
    mutationFn: ({ id, value }: { id: number; value: "fit" | "not_fit" | null }) => api.signals.leadFeedback.mutate({ id, feedback: value }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["leads"] }),
  });
  return (
    <section className="card" aria-labelledby="leads-title">
      <h2 id="leads-title">Leads</h2>
      <QueryState query={agents}>
        {({ data }) => (
          <p className="muted">
            {data.length === 0
              ? "No lead agent yet: create one with POST /v1/signals/agents."
              : data.map((agent) => `${agent.name}: ${agent.status}, ${count(agent.lead_count)} leads, next run ${dateTime(agent.next_run_at)}`).join(" · ")}
          </p>
        )}
      </QueryState>
      <QueryTable query={leads} empty="No lead yet." columns={["Lead", "Agent", "Fit score", "Why", "Your verdict"]}>
        {(lead) => (
          <tr key={lead.id} className="lead" data-lead={lead.id}>
            <td>
              <strong>@{lead.username}</strong> {lead.name}
              <div className="muted">{lead.bio}</div>
            </td>
            <td>{lead.agent_id === null ? "search" : (agentName.get(lead.agent_id) ?? lead.agent_id)}</td>
            <td>{lead.icp_score ?? "—"}</td>
            <td>{lead.icp_rationale ?? "—"}</td>
            <td className="actions">
              <button
                type="button"
                aria-pressed={lead.feedback === "fit"}
                onClick={() => feedback.mutate({ id: lead.id, value: lead.feedback === "fit" ? null : "fit" })}
              >
                Fit
              </button>
              <button
                type="button"
                aria-pressed={lead.feedback === "not_fit"}
                onClick={() => feedback.mutate({ id: lead.id, value: lead.feedback === "not_fit" ? null : "not_fit" })}
              >
                Not fit
              </button>
            </td>
          </tr>
        )}
      </QueryTable>
      <Failure error={feedback.error} />
    </section>
  );
}
