/**
 * The local media store: objects are files under a directory (default `DATA_DIR/media`),
 * uploads arrive through this server's own signed route
 * `PUT {base}/v1/media/uploads/{object_key}?expires=..&signature=..` (an HMAC-SHA256 over
 * key, type, size and expiry), and `GET` on the same path shows the object.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MediaStore, StoredObjectHead, UploadTarget } from "../../core/ports/media_store.ts";
import { OBJECT_KEY } from "../../core/media/accept_upload.ts";

/** Where the files go and how URLs are signed. */
export interface LocalMediaStoreOptions {
  dir: string;
  /** The HMAC key; the same for every process serving one database (see open_media_store.ts). */
  secret: string;
  /** `PUBLIC_URL` + `/v1`, when configured: object URLs made without a request use it. */
  publicBaseUrl?: string;
  /** Remove `dir` on close (a temporary directory this process made). */
  removeOnClose?: boolean;
}

/** The path of the upload route under a `/v1` base. */
export const UPLOAD_ROUTE_PREFIX = "/media/uploads/";

/** Opens the store (the directory is made on the first upload). */
export function createLocalMediaStore(options: LocalMediaStoreOptions): MediaStore {
  const pathOf = (objectKey: string) => {
    // Keys come from our own generator; anything else never reaches the disk.
    if (!OBJECT_KEY.test(objectKey)) throw new Error(`Invalid media object key "${objectKey}"`);
    return join(options.dir, objectKey.slice(0, 2), objectKey);
  };
  const signature = (target: { objectKey: string; contentType: string; size: number; expiresAtSeconds: number }) =>
    createHmac("sha256", options.secret)
      .update(["PUT", target.objectKey, target.contentType, String(target.size), String(target.expiresAtSeconds)].join("\n"))
      .digest("base64url");
  const base = (baseUrl: string | undefined) => (options.publicBaseUrl ?? baseUrl ?? "/v1").replace(/\/+$/, "");
  return {
    kind: "local",
    checksOnUpload: true,
    async presignUpload(target: UploadTarget) {
      const expiresAtSeconds = Math.floor(target.expiresAt.getTime() / 1000);
      const signed = signature({ objectKey: target.objectKey, contentType: target.contentType, size: target.size, expiresAtSeconds });
      // The caller's own base first: the client PUTs to the address it reached us at.
      return `${target.baseUrl.replace(/\/+$/, "")}${UPLOAD_ROUTE_PREFIX}${target.objectKey}?expires=${expiresAtSeconds}&signature=${signed}`;
    },
    objectUrl(objectKey, baseUrl) {
      return `${base(baseUrl)}${UPLOAD_ROUTE_PREFIX}${objectKey}`;
    },
    verifyUploadSignature(target, given) {
      const expected = Buffer.from(signature(target));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
    async head(objectKey, bytes): Promise<StoredObjectHead | undefined> {
      let file: Awaited<ReturnType<typeof open>>;
      try {
        file = await open(pathOf(objectKey), "r");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      try {
        const { size } = await file.stat();
        const head = new Uint8Array(Math.min(bytes, size));
        await file.read(head, 0, head.length, 0);
        return { size, head };
      } finally {
        await file.close();
      }
    },
    async read(objectKey) {
      try {
        return new Uint8Array(await readFile(pathOf(objectKey)));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async put(objectKey, bytes) {
      const path = pathOf(objectKey);
      await mkdir(dirname(path), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${path}.${randomBytes(6).toString("hex")}.part`;
      try {
        const file = await open(partial, "w");
        try {
          await file.writeFile(bytes);
        } finally {
          await file.close();
        }
        await rename(partial, path);
      } catch (error) {
        await unlink(partial).catch(() => {});
        throw error;
      }
    },
    async delete(objectKey) {
      await rm(pathOf(objectKey), { force: true });
    },
    async close() {
      if (options.removeOnClose) await rm(options.dir, { recursive: true, force: true });
    },
  };
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}
