/** Sign in with an API key: checked against `GET /v1/me` before the console opens. */
import { type FormEvent, useState } from "react";
import { clientFor, failureMessage } from "../api.ts";
import { signIn } from "../session.ts";

export function SignIn() {
  const [key, setKey] = useState("");
  const [stay, setStay] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const trimmed = key.trim();
    try {
      await clientFor(() => trimmed).identity.me.query();
    } catch (failure) {
      setError(failureMessage(failure));
      setBusy(false);
      return;
    }
    signIn(trimmed, stay);
  };
  return (
    <main id="main" className="sign-in">
      <h1>Threadline console</h1>
      <p>Paste an API key: the one `npm start` printed on its first start, or one from `npm run cli -- keys create`.</p>
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" required value={key} onChange={(event) => setKey(event.target.value)} />
        <label className="check">
          <input type="checkbox" checked={stay} onChange={(event) => setStay(event.target.checked)} /> Stay signed in on this browser
        </label>
        <button type="submit" disabled={busy || key.trim() === ""}>
          Sign in
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
