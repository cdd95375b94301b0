/** One post opened from the calendar: parts, media, tags, status and error; move to drafts or delete. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, failureMessage } from "../api.ts";
import { dateTime } from "../format.ts";
import { QueryState } from "../query_state.tsx";

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
  const failure = toDrafts.error ?? remove.error ?? retry.error;
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
      {failure && (
        <p role="alert" className="error">
          {failureMessage(failure)}
        </p>
      )}
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
