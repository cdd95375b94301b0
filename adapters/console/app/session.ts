/**
 * The API key the console signs in with. Held for the browser session (sessionStorage) unless
 * the user asks to stay signed in (localStorage); never put in a URL. Listeners hear sign-in
 * and sign-out, including a sign-out forced by the API refusing the key.
 */
const STORAGE_NAME = "threadline.key";

type Listener = (key: string | undefined) => void;
const listeners = new Set<Listener>();

/** The key in use, if signed in. */
export function currentKey(): string | undefined {
  return sessionStorage.getItem(STORAGE_NAME) ?? localStorage.getItem(STORAGE_NAME) ?? undefined;
}

/** Keeps `key` for this browser session, or across sessions with `stay`. */
export function signIn(key: string, stay: boolean): void {
  forget();
  (stay ? localStorage : sessionStorage).setItem(STORAGE_NAME, key);
  for (const listener of listeners) listener(key);
}

/** Forgets the key everywhere it may be kept. */
export function signOut(): void {
  forget();
  for (const listener of listeners) listener(undefined);
}

/** Calls `listener` on every sign-in and sign-out; answers the unsubscribe. */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function forget(): void {
  sessionStorage.removeItem(STORAGE_NAME);
  localStorage.removeItem(STORAGE_NAME);
}
