/**
 * The MediaStore port: where uploaded images live (ARCHITECTURE: "The outside world is
 * a port with two adapters"). `adapters/media/` holds local disk (bytes arrive through
 * this server's signed PUT route) and S3-compatible storage (bytes go straight to the
 * bucket through a presigned URL). `Services.media` is undefined when no store is
 * configured, which `POST /v1/media` answers with `503 media_not_configured`.
 */

/** What a presigned upload URL is made for (spec Constants: valid 20 minutes). */
export interface UploadTarget {
  objectKey: string;
  /** The declared MIME type; the upload must be sent with exactly this `Content-Type`. */
  contentType: string;
  /** The declared size in bytes. */
  size: number;
  /** When the URL is issued (the services clock). */
  issuedAt: Date;
  /** When the URL stops working. */
  expiresAt: Date;
  /** This server's `/v1` base as the caller reached it (a local store's PUT route lives there). */
  baseUrl: string;
}

/** The size of a stored object and its first bytes (for the magic-number check). */
export interface StoredObjectHead {
  size: number;
  head: Uint8Array;
}

/** Object storage as core sees it. */
export interface MediaStore {
  /** `local`: this server's disk; `s3`: an S3-compatible bucket. */
  readonly kind: "local" | "s3";
  /**
   * True when bytes are checked as they arrive (the local PUT route refuses a wrong type
   * or size and stores nothing); false when the client PUTs straight to the store and the
   * bytes are checked when a post first attaches the key (`checkAttachableMedia`).
   */
  readonly checksOnUpload: boolean;
  /** A URL the client PUTs the raw bytes to, without an Authorization header. */
  presignUpload(target: UploadTarget): Promise<string>;
  /** A URL that shows the object; `baseUrl` is this server's `/v1` base when known. */
  objectUrl(objectKey: string, baseUrl?: string): string;
  /** The object's size and up to `bytes` first bytes, or undefined when it was never stored. */
  head(objectKey: string, bytes: number): Promise<StoredObjectHead | undefined>;
  /** The whole object, or undefined when it was never stored. */
  read(objectKey: string): Promise<Uint8Array | undefined>;
  /** Stores an object (replacing one of the same key). */
  put(objectKey: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Deletes an object; deleting a missing one is not an error. */
  delete(objectKey: string): Promise<void>;
  /**
   * Checks the signature of this server's own upload URL (local store only): true when
   * `signature` was made by `presignUpload` for exactly this key, type, size and expiry.
   */
  verifyUploadSignature?(target: { objectKey: string; contentType: string; size: number; expiresAtSeconds: number }, signature: string): boolean;
  /** Lets go of what the store holds (a temporary directory, connections). */
  close(): Promise<void>;
}
