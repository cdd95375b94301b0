/**
 * The user's API keys: create with scopes (the key shown once), rotate, revoke. Rotating the key
 * in use signs the console in with its replacement; revoking it signs the console out.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api.ts";
import { dateTime } from "../format.ts";
import { Failure } from "../query_state.tsx";
import { QueryTable } from "../query_table.tsx";
import { currentKey, signIn, signOut } from "../session.ts";

type Issued = Awaited<ReturnType<typeof api.keys.create.mutate>>["data"];

export function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ["keys"], queryFn: () => api.keys.list.query({ limit: 100 }) });
  const [name, setName] = useState("");
  const [writable, setWritable] = useState(true);
  const [issued, setIssued] = useState<Issued>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["keys"] });
  const create = useMutation({
    mutationFn: () => api.keys.create.mutate({ name: name.trim(), scopes: writable ? ["read", "write"] : ["read"] }),
    onSuccess: ({ data }) => {
      setIssued(data);
      setName("");
      refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: (id: number) => api.keys.rotate.mutate({ id }),
    onSuccess: ({ data }, id) => {
      setIssued(data);
      const current = keys.data?.data.find((key) => key.id === id)?.current;
      // The console's own key was replaced: carry on with the new one, kept where the old one was.
      if (current) signIn(data.key, localStorage.getItem("threadline.key") !== null);
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => api.keys.revoke.mutate({ id }),
    onSuccess: (_, id) => {
      if (keys.data?.data.find((key) => key.id === id)?.current) return signOut();
      refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const failure = create.error ?? rotate.error ?? revoke.error;
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <QueryTable query={keys} columns={["Name", "Key", "Scopes", "Last used", { hidden: "Actions" }]}>
        {(key) => (
          <tr key={key.id}>
            <td>
              {key.name}
              {key.current && <span className="tag">this console</span>}
            </td>
            <td>
              <code>{key.display}</code>
            </td>
            <td>{key.scopes.join(", ")}</td>
            <td>{dateTime(key.last_used_at)}</td>
            <td className="actions">
              <button type="button" onClick={() => rotate.mutate(key.id)} disabled={rotate.isPending} aria-label={`Rotate ${key.name}`}>
                Rotate
              </button>
              <button type="button" className="danger" onClick={() => revoke.mutate(key.id)} disabled={revoke.isPending} aria-label={`Revoke ${key.name}`}>
                Revoke
              </button>
            </td>
          </tr>
        )}
      </QueryTable>
      <form onSubmit={submit} className="inline">
        <label htmlFor="key-name">New key name</label>
        <input id="key-name" type="text" required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        <label className="check">
          <input type="checkbox" checked={writable} onChange={(event) => setWritable(event.target.checked)} /> Can write (otherwise read-only)
        </label>
        <button type="submit" disabled={create.isPending || name.trim() === ""}>
          Create key
        </button>
      </form>
      {issued && issued.key !== currentKey() && (
        <p role="status" className="ok">
          {`New key "${issued.name}" (shown once, copy it now): `}
          <code>{issued.key}</code>
        </p>
      )}
      <Failure error={failure} />
    </section>
  );
}
