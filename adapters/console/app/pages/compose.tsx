/**
 * Compose: a post or a thread of parts, images with previews and alt text, tags, and when it goes
 * out (a draft, the next queue slot, a time in the queue's time zone, or now). The viral score and
 * the AI rephrase are at hand, and a part holding a URL is flagged before X charges for it.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { urlPriceWarnings } from "../../../../core/x_usage/url_price_warning.ts";
import { Failure } from "../query_state.tsx";
import { api, failureMessage, idempotentClient } from "../api.ts";
import { dateTime } from "../format.ts";
import { type Uploaded, uploadImage } from "../media_upload.ts";

/** A part as it is being written. */
interface Draft {
  text: string;
  media: { upload: Uploaded; alt: string; preview: string }[];
}

type When = "draft" | "next_slot" | "at" | "now";
const REPHRASE = ["improve", "hook", "concise", "clarity", "grammar", "engaging"] as const;

export default function Compose() {
  const accounts = useQuery({ queryKey: ["accounts"], queryFn: () => api.identity.accounts.query({ limit: 100 }) });
  const writable = (accounts.data?.data ?? []).filter((account) => account.relation === "main" || account.relation === "linked");
  const [accountId, setAccountId] = useState<string>();
  const account = accountId ?? writable.find((candidate) => candidate.is_main)?.id;
  const settings = useQuery({
    queryKey: ["queue-settings", account],
    queryFn: () => api.queue.get.query({ account_id: account }),
    enabled: account !== undefined,
  });
  const tags = useQuery({
    queryKey: ["tags", account],
    queryFn: () => api.tags.list.query({ account_id: account, limit: 100 }),
    enabled: account !== undefined,
  });
  const timeZone = settings.data?.data.timezone ?? "UTC";

  const [parts, setParts] = useState<Draft[]>([{ text: "", media: [] }]);
  const [chosenTags, setChosenTags] = useState<number[]>([]);
  const [when, setWhen] = useState<When>("next_slot");
  const [at, setAt] = useState("");
  const [uploadError, setUploadError] = useState<string>();
  // One key per composed post: pressing "Publish now" again after a lost answer publishes once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  // Previews live as long as the page: released when it closes.
  const previews = useRef<string[]>([]);
  useEffect(
    () => () => {
      for (const preview of previews.current) URL.revokeObjectURL(preview);
    },
    [],
  );

  const change = (index: number, next: Partial<Draft>) => setParts((all) => all.map((part, i) => (i === index ? { ...part, ...next } : part)));
  const warnings = urlPriceWarnings(parts);

  const score = useMutation({
    mutationFn: () => api.postsAnalysis.viralScore.mutate({ text: parts[0].text, has_image: parts[0].media.length > 0, account_id: account }),
  });
  const rephrase = useMutation({
    mutationFn: ({ index, type }: { index: number; type: (typeof REPHRASE)[number] }) =>
      api.tools.rephrase.mutate({ type, text: parts[index].text, account_id: account }),
    onSuccess: ({ data }, { index }) => change(index, { text: data.text }),
  });
  const create = useMutation({
    mutationFn: () => {
      const input = {
        account_id: account,
        parts: parts.map((part) => ({
          text: part.text,
          media: part.media.map((media) => ({ object_key: media.upload.object_key, alt_text: media.alt || undefined })),
        })),
        tags: chosenTags,
        scheduled_for: when === "draft" ? undefined : when === "at" ? (DateTime.fromISO(at, { zone: timeZone }).toUTC().toISO() ?? undefined) : when,
      };
      return when === "now" ? idempotentClient(idempotencyKey).scheduledPosts.create.mutate(input) : api.scheduledPosts.create.mutate(input);
    },
    onSuccess: () => {
      setParts([{ text: "", media: [] }]);
      setChosenTags([]);
      setIdempotencyKey(crypto.randomUUID());
    },
  });

  const attach = async (index: number, files: FileList | null) => {
    setUploadError(undefined);
    for (const file of Array.from(files ?? [])) {
      try {
        const upload = await uploadImage(file, account);
        const preview = URL.createObjectURL(file);
        previews.current.push(preview);
        setParts((all) => all.map((part, i) => (i === index ? { ...part, media: [...part.media, { upload, alt: "", preview }] } : part)));
      } catch (error) {
        setUploadError(`${file.name}: ${failureMessage(error)}`);
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <>
      <h1>Compose</h1>
      <form onSubmit={submit} className="compose">
        {writable.length > 1 && (
          <p>
            <label htmlFor="account">Account</label>
            <select id="account" value={account} onChange={(event) => setAccountId(event.target.value)}>
              {writable.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>{`@${candidate.username}`}</option>
              ))}
            </select>
          </p>
        )}
        {parts.map((part, index) => (
          // Parts are positions in the thread; their index is their identity while composing.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <fieldset key={index} className="card part">
            <legend>{parts.length === 1 ? "Post" : `Part ${index + 1} of ${parts.length}`}</legend>
            <label htmlFor={`part-${index}`}>Text</label>
            <textarea id={`part-${index}`} rows={4} value={part.text} onChange={(event) => change(index, { text: event.target.value })} />
            <p className={part.text.length > 280 ? "error" : "muted"}>{`${part.text.length} / 280 characters`}</p>
            <div className="actions">
              <label htmlFor={`media-${index}`} className="button-like">
                Add images
              </label>
              <input
                id={`media-${index}`}
                className="visually-hidden"
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                multiple
                onChange={(event) => attach(index, event.target.files)}
              />
              {REPHRASE.map((type) => (
                <button key={type} type="button" disabled={part.text.trim() === "" || rephrase.isPending} onClick={() => rephrase.mutate({ index, type })}>
                  {`AI: ${type}`}
                </button>
              ))}
              {parts.length > 1 && (
                <button type="button" className="danger" onClick={() => setParts((all) => all.filter((_, i) => i !== index))}>
                  Remove part
                </button>
              )}
            </div>
            {part.media.length > 0 && (
              <ul className="media">
                {part.media.map((media, mediaIndex) => (
                  <li key={media.upload.object_key}>
                    <img src={media.preview} alt={media.alt || `Image ${mediaIndex + 1} of part ${index + 1}`} />
                    <label htmlFor={`alt-${index}-${mediaIndex}`}>Alt text</label>
                    <input
                      id={`alt-${index}-${mediaIndex}`}
                      type="text"
                      maxLength={1000}
                      value={media.alt}
                      onChange={(event) =>
                        change(index, { media: part.media.map((item, i) => (i === mediaIndex ? { ...item, alt: event.target.value } : item)) })
                      }
                    />
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
        ))}
        <p className="actions">
          <button type="button" onClick={() => setParts((all) => [...all, { text: "", media: [] }])} disabled={parts.length >= 25}>
            Add a part
          </button>
          <button type="button" onClick={() => score.mutate()} disabled={parts[0].text.trim() === "" || score.isPending}>
            Viral score
          </button>
          {score.data && <span role="status">{`Viral score ${score.data.data.score}/100: the chance it beats your median post`}</span>}
        </p>
        {warnings.map((warning) => (
          <p key={warning.code} role="alert" className="warning">
            {warning.message}
          </p>
        ))}
        {(tags.data?.data.length ?? 0) > 0 && (
          <fieldset className="tags">
            <legend>Tags</legend>
            {tags.data?.data.map((tag) => (
              <label key={tag.id} className="check">
                <input
                  type="checkbox"
                  checked={chosenTags.includes(tag.id)}
                  onChange={(event) => setChosenTags((all) => (event.target.checked ? [...all, tag.id] : all.filter((id) => id !== tag.id)))}
                />{" "}
                {tag.name}
              </label>
            ))}
          </fieldset>
        )}
        <fieldset className="when">
          <legend>When</legend>
          {(
            [
              ["next_slot", "Next queue slot"],
              ["at", `At a time (${timeZone})`],
              ["now", "Publish now"],
              ["draft", "Save as draft"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="check">
              <input type="radio" name="when" checked={when === value} onChange={() => setWhen(value)} /> {label}
            </label>
          ))}
          {when === "at" && (
            <>
              <label htmlFor="at">{`Date and time in ${timeZone}`}</label>
              <input id="at" type="datetime-local" required value={at} onChange={(event) => setAt(event.target.value)} />
            </>
          )}
        </fieldset>
        <button type="submit" disabled={create.isPending || parts.every((part) => part.text.trim() === "" && part.media.length === 0)}>
          {when === "draft" ? "Save draft" : when === "now" ? "Publish now" : "Schedule"}
        </button>
        {uploadError && (
          <p role="alert" className="error">
            {uploadError}
          </p>
        )}
        <Failure error={create.error ?? rephrase.error ?? score.error} />
        {create.data && (
          <p role="status" className="ok">
            {`Post ${create.data.data.id} ${create.data.data.status}${create.data.data.scheduled_for ? ` for ${dateTime(create.data.data.scheduled_for, timeZone)} (${timeZone})` : ""}. `}
            <Link href="/calendar">See the calendar</Link>
          </p>
        )}
      </form>
    </>
  );
}
