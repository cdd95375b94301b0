/**
 * One post opened from the calendar: parts, media, tags, status and error; move it to another
 * time (the keyboard's way to do what a drag does), retry it, move it to drafts or delete it.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api } from "../api.ts";
import { dateTime } from "../format.ts";
import { Failure, QueryState } from "../query_state.tsx";

export function PostPanel({ id, timeZone, onClose, onChanged }: { id: string; timeZone: string; onClose: () => void; onChanged: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  const post = useQuery({ queryKey: ["post", id], queryFn: () => api.scheduledPosts.get.query({ id }) });
  const done = () => {
    onChanged();
    dialog.current?.close();
  };
  const toDrafts = useMutation({ mutationFn: () => api.scheduledPosts.update.mutate({ id, status: "draft" }), onSuccess: done });
  const remove = useMutation({ mutationFn: () => api.scheduledPosts.delete.mutate({ id }), onSuccess: done });
  // A failed post goes out again at the account's next free queue slot.
  const retry = useMutation({ mutationFn: () => api.scheduledPosts.update.mutate({ id, status: "scheduled", scheduled_for: "next_slot" }), onSuccess: done });
  const [moveTo, setMoveTo] = useState("");
  // The time typed is a wall-clock time in the queue's time zone.
  const move = useMutation({
    mutationFn: () => api.scheduledPosts.update.mutate({ id, scheduled_for: DateTime.fromISO(moveTo, { zone: timeZone }).toUTC().toISO() ?? "" }),
    onSuccess: done,
  });
  const submitMove = (event: FormEvent) => {
    event.preventDefault();
    move.mutate();
  };
  const failure = toDrafts.error ?? remove.error ?? retry.error ?? move.error;
  return (
    <dialog ref={dialog} onClose={onClose} aria-labelledby="post-title" className="panel">
      <QueryState query={post}>
        {({ data }) => (
          <>
            <h2 id="post-title">{data.title ?? `Post ${data.id}`}</h2>
            <dl>
              <dt>Status</dt>
              <dd className={`post-${data.status}`}>{data.status}</dd>
              <dt>When</dt>
              <dd>{`${dateTime(data.scheduled_for, timeZone)} (${timeZone})`}</dd>
              {data.error && (
                <>
                  <dt>Error</dt>
                  <dd className="error">{data.error}</dd>
                </>
              )}
              <dt>Tags</dt>
              <dd>
                {data.tags.length === 0
                  ? "none"
                  : data.tags.map((tag) => (
                      <span key={tag.id} className={`tag tag-${tag.color}`}>
                        {tag.name}
                      </span>
                    ))}
              </dd>
              <dt>Auto DM</dt>
              <dd>{data.auto_dm ? `on ${data.auto_dm.triggers.join(" and ")}, up to ${data.auto_dm.max}` : "none"}</dd>
            </dl>
            <ol className="parts">
              {data.parts.map((part, index) => (
                // Parts have no id of their own; their order is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <li key={index}>
                  <p>{part.text}</p>
                  {part.media.length > 0 && <p className="muted">{part.media.map((media) => media.alt_text ?? media.object_key).join(", ")}</p>}
                </li>
              ))}
            </ol>
            {data.status === "scheduled" && (
              <form onSubmit={submitMove} className="inline">
                <label htmlFor="move-to">{`Move to (${timeZone})`}</label>
                <input id="move-to" type="datetime-local" required value={moveTo} onChange={(event) => setMoveTo(event.target.value)} />
                <button type="submit" disabled={move.isPending}>
                  Move
                </button>
              </form>
            )}
            <div className="actions">
              {data.status === "error" && (
                <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>
                  Retry at the next queue slot
                </button>
              )}
              {data.status === "scheduled" && (
                <button type="button" onClick={() => toDrafts.mutate()} disabled={toDrafts.isPending}>
                  Move to drafts
                </button>
              )}
              {data.status !== "sent" && (
                <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                  Delete
                </button>
              )}
            </div>
          </>
        )}
      </QueryState>
      <Failure error={failure} />
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
