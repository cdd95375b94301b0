/**
 * Where a job runner's events go in the server's thread: the log (job id and kind on
 * every line) and the metrics. The job thread posts its events here (jobs/index.ts).
 */
import type { JobEvent, JobEventListener } from "../../core/jobs/job_events.ts";
import type { Logger } from "./open_logger.ts";
import type { ThreadlineMetrics } from "./threadline_metrics.ts";

/** Logs and counts each event. */
export function jobEventSink(logger: Logger, metrics: ThreadlineMetrics | undefined): JobEventListener {
  return (event: JobEvent) => {
    metrics?.jobEvent(event);
    switch (event.event) {
      case "claimed":
        logger.debug({ job_id: event.jobId, job_kind: event.kind, lag_seconds: event.lagSeconds }, "job claimed");
        break;
      case "failed":
        logger[event.final ? "error" : "warn"](
          { job_id: event.jobId, job_kind: event.kind, attempts: event.attempts, final: event.final, err: errorOf(event.error) },
          event.final ? "job failed for good" : "job attempt failed",
        );
        break;
      case "loop_error":
        logger.error({ runner_id: event.runnerId, err: errorOf(event.error) }, "job loop error");
        break;
      case "post_sent":
        logger.info({ job_id: event.jobId, job_kind: "publish_scheduled_post", lateness_seconds: event.latenessSeconds }, "post sent");
        break;
    }
  };
}

/** pino's error serializer wants an Error: rebuild one from the facts a thread posted. */
function errorOf(facts: { message: string; stack?: string }): Error {
  const error = new Error(facts.message);
  error.stack = facts.stack ?? error.stack;
  return error;
}
