/**
 * A download that needs the API key: fetched with the Bearer header (a plain link cannot carry
 * it, and the key is never put in a URL), then saved from memory under the server's file name.
 */
import { currentKey } from "./session.ts";

export async function downloadWithKey(path: string, fallbackName: string): Promise<void> {
  const answer = await fetch(path, { headers: { Authorization: `Bearer ${currentKey() ?? ""}` } });
  if (!answer.ok) {
    const body = (await answer.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    throw new Error(body?.error ? `${body.error.message} (${body.error.code})` : `The download answered ${answer.status}`);
  }
  const name = /filename="?([^";]+)"?/.exec(answer.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await answer.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
