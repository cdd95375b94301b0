/**
 * The outside world a configuration names (social network, media store, model), opened
 * the same way by the server (open_runtime.ts) and by the job thread
 * (run_due_jobs.ts), which has its own pool and receives the settings as plain data.
 * Adding a port that jobs use means adding it here, once.
 */
import type { Clock } from "../../core/clock.ts";
import type { Sql } from "../../core/db/sql.ts";
import type { JobDeps } from "../../core/jobs/job_deps.ts";
import type { JobEventListener } from "../../core/jobs/job_events.ts";
import type { MediaStore } from "../../core/ports/media_store.ts";
import type { Model } from "../../core/model/model.ts";
import type { SocialNetwork } from "../../core/network/social_network.ts";
import type { WebhookSender } from "../../core/ports/webhook_sender.ts";
import { openModel } from "../ai/open_model.ts";
import { createGuardedWebhookSender } from "../outbound/guarded_post.ts";
import type { OutboundSettings } from "../outbound/guarded_get.ts";
import { mediaStoreConfig, openMediaStore, type MediaStoreConfig } from "../media/open_media_store.ts";
import { openNetwork, openXRateWindows, type NetworkSettings } from "../x/open_network.ts";
import { modelSettingsOf, networkSettingsOf, type ModelSettings, type ThreadlineConfig } from "./config.ts";
import type { SecretBox } from "../../core/ports/secret_box.ts";
import { createSecretBox, parseEncryptionKey, resolveSecretKeys, type SecretKeySettings } from "../crypto/secret_box.ts";

/** The ports' settings as plain (structured-clone safe) data. */
export interface PortSettings {
  network: NetworkSettings;
  media: MediaStoreConfig;
  model: ModelSettings;
  /** The outbound guard's settings (`OUTBOUND_ALLOW_HOSTS`, CA): webhook deliveries use them. */
  outbound: OutboundSettings;
  /** The keys stored secrets are sealed with (`ENCRYPTION_KEY`, `ENCRYPTION_KEY_PREVIOUS`); opened ports hold the key in use. */
  secrets: SecretKeySettings;
}

/** Opened ports. */
export interface Ports {
  network: SocialNetwork;
  media?: MediaStore;
  model: Model;
  /** Posts webhook deliveries through the outbound guard. */
  webhookSender: WebhookSender;
  /** Seals and opens stored secrets (webhook signing secrets). */
  secretBox: SecretBox;
  /** The settings with every default filled in (the media directory and signing secret), for a job thread. */
  settings: PortSettings;
  /** Closes what the ports hold open (the Redis connection of X's rate windows). */
  close(): Promise<void>;
}

/** Reads (and validates: a bad MEDIA_STORE or AI setting throws here, before anything opens) the ports' settings. */
export function portSettingsOf(config: ThreadlineConfig): PortSettings {
  const settings = {
    network: networkSettingsOf(config),
    media: mediaStoreConfig(config),
    model: modelSettingsOf(config),
    outbound: { allowHosts: config.outboundAllowHosts, ca: config.outboundCa, timeoutMs: config.outboundTimeoutMs },
    secrets: { key: config.encryptionKey, previousKey: config.encryptionKeyPrevious },
  };
  openModel(settings.model, settings.model.faulty);
  if (config.encryptionKey) parseEncryptionKey(config.encryptionKey, "ENCRYPTION_KEY");
  if (config.encryptionKeyPrevious) parseEncryptionKey(config.encryptionKeyPrevious, "ENCRYPTION_KEY_PREVIOUS");
  return settings;
}

/** Opens the ports on `sql` (the simulated network and the local media store keep their state there). */
export async function openPorts(sql: Sql, clock: Clock, settings: PortSettings): Promise<Ports> {
  const model = openModel(settings.model, settings.model.faulty);
  const keys = await resolveSecretKeys(settings.secrets, sql);
  const secrets = { key: keys.key, previousKey: keys.previousKey };
  const secretBox = createSecretBox(secrets);
  // The simulated world unless X_API_BASE_URL and X_BEARER_TOKEN are set; THREADLINE_FAULTS=x makes it fail.
  // X's rate windows: in Redis with REDIS_URL, so the server and every job thread share them.
  const rateWindows = openXRateWindows(settings.network);
  const network = openNetwork({ sql, clock, ...settings.network, secretBox, rateWindows });
  const media = await openMediaStore(settings.media, sql);
  const webhookSender = createGuardedWebhookSender(settings.outbound);
  return {
    network,
    media: media.store,
    model,
    webhookSender,
    secretBox,
    settings: { ...settings, media: media.config, secrets },
    close: async () => {
      await rateWindows?.close();
    },
  };
}

/** What job handlers use, from the ports. */
export function jobDepsOf(sql: Sql, clock: Clock, ports: Ports, events?: JobEventListener): JobDeps {
  return { sql, clock, network: ports.network, media: ports.media, model: ports.model, webhookSender: ports.webhookSender, secretBox: ports.secretBox, events };
}
