/**
 * What a job handler may use. A job thread has its own pool and ports, not the server's
 * Services, so handlers get this instead of a request context. Only ports and platform types
 * here: the queue knows no area, and an area enqueueing or handling a job never imports the
 * task list (jobs/task_list.ts) to name its dependencies.
 */
import type { Clock } from "../clock.ts";
import type { Sql } from "../db/sql.ts";
import type { MediaStore } from "../ports/media_store.ts";
import type { Model } from "../model/model.ts";
import type { SocialNetwork } from "../network/social_network.ts";
import type { WebhookSender } from "../ports/webhook_sender.ts";
import type { SecretBox } from "../ports/secret_box.ts";
import type { JobEventListener } from "./job_events.ts";

/** The ports a job handler is given (the composition root builds them: adapters/runtime). */
export interface JobDeps {
  sql: Sql;
  clock: Clock;
  /** The social network the publisher posts through (a job thread opens its own). */
  network: SocialNetwork;
  /** The media store uploads are deleted from (absent: MEDIA_STORE=none; only rows go). */
  media?: MediaStore;
  /** The model article covers are generated with (a job thread opens its own from the same settings). */
  model?: Model;
  /** Posts webhook deliveries through the outbound guard (absent: `deliver_webhooks` fails). */
  webhookSender?: WebhookSender;
  /** Opens the endpoints' sealed signing secrets (absent: `deliver_webhooks` fails). */
  secretBox?: SecretBox;
  /** Hears what handlers report (publisher lateness); absent: nothing reported. */
  events?: JobEventListener;
}
