/** Uploads an image as the API asks: `POST /v1/media` for a signed URL, then the bytes with a PUT to it. */
import { api } from "./api.ts";

export type Uploaded = Awaited<ReturnType<typeof api.media.createUpload.mutate>>["data"];

export async function uploadImage(file: File, accountId: string | undefined): Promise<Uploaded> {
  const { data } = await api.media.createUpload.mutate({ filename: file.name, file_type: file.type, size: file.size, account_id: accountId });
  const answer = await fetch(data.upload_url, { method: data.upload_method, headers: data.upload_headers, body: file });
  if (!answer.ok) {
    const body = (await answer.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    throw new Error(body?.error ? `${body.error.message} (${body.error.code})` : `The upload answered ${answer.status}`);
  }
  return data;
}
