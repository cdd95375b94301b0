/**
 * Picks and opens the media store from the configuration (`MEDIA_STORE`): `local`
 * (default), `s3` or `none`. The resolved description is plain data, so a bree job
 * thread can open the same store from its `workerData` (adapters/runtime/run_due_jobs.ts).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Queryable } from "../../core/db/sql.ts";
import type { ThreadlineConfig } from "../runtime/config.ts";
import type { MediaStore } from "../../core/ports/media_store.ts";
import { instanceSecret } from "../../core/db/instance_secrets_queries.ts";
import { createLocalMediaStore } from "./local_media_store.ts";
import { createS3MediaStore, type S3MediaStoreOptions } from "./s3_media_store.ts";

/** A media store described as plain (structured-clone safe) data. */
export type MediaStoreConfig =
  | { kind: "none" }
  /** `dir` absent: a temporary directory, removed on close (in-memory embedded databases). */
  | { kind: "local"; dir?: string; signingSecret?: string; publicBaseUrl?: string }
  | ({ kind: "s3" } & S3MediaStoreOptions);

/** The configuration fields this reads (a subset of `ThreadlineConfig`). */
export type MediaSettings = Pick<
  ThreadlineConfig,
  | "mediaStore"
  | "mediaDir"
  | "mediaSigningSecret"
  | "dataDir"
  | "publicUrl"
  | "s3Endpoint"
  | "s3Bucket"
  | "s3Region"
  | "s3AccessKeyId"
  | "s3SecretAccessKey"
  | "s3PublicUrl"
  | "s3PathStyle"
>;

/** The name of the installation secret local upload URLs are signed with. */
const SIGNING_SECRET_NAME = "media_upload_signing";

/** Validates the settings (throws naming the missing variable) and describes the store. */
export function mediaStoreConfig(settings: MediaSettings): MediaStoreConfig {
  const kind = settings.mediaStore ?? "local";
  if (kind === "none") return { kind };
  if (kind === "local") {
    const dir = settings.mediaDir ?? (settings.dataDir === null ? undefined : join(settings.dataDir ?? ".threadline", "media"));
    const publicBaseUrl = settings.publicUrl ? `${settings.publicUrl.replace(/\/+$/, "")}/v1` : undefined;
    return { kind, dir: dir === undefined ? undefined : resolve(dir), signingSecret: settings.mediaSigningSecret, publicBaseUrl };
  }
  if (kind === "s3") {
    const required: [string, string | undefined][] = [
      ["S3_BUCKET", settings.s3Bucket],
      ["S3_ACCESS_KEY_ID", settings.s3AccessKeyId],
      ["S3_SECRET_ACCESS_KEY", settings.s3SecretAccessKey],
    ];
    const missing = required.filter(([, value]) => !value).map(([name]) => name);
    if (!settings.s3Endpoint && !settings.s3Region) missing.push("S3_ENDPOINT");
    if (missing.length > 0) throw new Error(`MEDIA_STORE=s3 needs ${missing.map((name) => `"${name}"`).join(", ")}`);
    const region = settings.s3Region ?? "us-east-1";
    return {
      kind,
      endpoint: settings.s3Endpoint ?? `https://s3.${region}.amazonaws.com`,
      bucket: settings.s3Bucket!,
      region,
      accessKeyId: settings.s3AccessKeyId!,
      secretAccessKey: settings.s3SecretAccessKey!,
      publicUrl: settings.s3PublicUrl,
      pathStyle: settings.s3PathStyle,
    };
  }
  throw new Error(`Unknown MEDIA_STORE "${kind}"; use local, s3 or none`);
}

/**
 * Opens the store `config` describes; answers it (undefined for `none`) and the config
 * with every default filled in (the temporary directory made), for job threads.
 */
export async function openMediaStore(config: MediaStoreConfig, sql: Queryable): Promise<{ store?: MediaStore; config: MediaStoreConfig }> {
  if (config.kind === "none") return { config };
  if (config.kind === "s3") return { store: createS3MediaStore(config), config };
  // Every process on one database must sign alike: the secret is configured or kept in the database.
  const secret = config.signingSecret ?? (await instanceSecret(sql, SIGNING_SECRET_NAME, randomBytes(32).toString("base64url")));
  const temporary = config.dir === undefined;
  const dir = config.dir ?? (await mkdtemp(join(tmpdir(), "threadline-media-")));
  const store = createLocalMediaStore({ dir, secret, publicBaseUrl: config.publicBaseUrl, removeOnClose: temporary });
  // The job thread gets the directory and secret itself, and never removes the directory.
  return { store, config: { ...config, dir, signingSecret: secret } };
}
